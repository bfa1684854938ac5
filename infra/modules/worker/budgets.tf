# The budget evaluation step from the same code: a third function, `usage-budgets`, that Cloud Scheduler
# ticks every minute through Pub/Sub. Each run reads every budget's spent and creates the outbox event of
# each threshold crossing with a create precondition, so a tick pushed twice, two instances or a restart
# never record an alert twice (docs/budgets.md, decision 0018).
variable "budgets_schedule" {
  description = "When the budget evaluation step runs (cron, UTC): spent is at most this far behind plus a run."
  type        = string
  default     = "* * * * *"
}
variable "budgets_max_documents" {
  description = "BUDGETS_MAX_DOCUMENTS: documents one organization's budget spent may read in one run."
  type        = number
  default     = 200000
}
variable "budgets_timeout_ms" {
  description = "BUDGETS_TIMEOUT_MS: how long one organization's budget spent may take to read in one run."
  type        = number
  default     = 30000
}

resource "google_cloudfunctions2_function" "budgets" {
  project  = var.project_id
  name     = "usage-budgets"
  location = var.region

  build_config {
    runtime     = local.runtime
    entry_point = "evaluateBudgets"
    source {
      storage_source {
        bucket = google_storage_bucket.source.name
        object = google_storage_bucket_object.source.name
      }
    }
  }

  # One instance, one tick at a time: a second at once would be safe (creates are preconditioned), only
  # wasted. A run is bounded well inside a minute per organization by the variables above.
  service_config {
    service_account_email            = var.service_account_email
    max_instance_count               = 1
    max_instance_request_concurrency = 1
    available_cpu                    = "1"
    available_memory                 = "1Gi"
    timeout_seconds                  = 540
    ingress_settings                 = "ALLOW_INTERNAL_ONLY"
    all_traffic_on_latest_revision   = true
    environment_variables            = local.environment
  }
}

resource "google_cloud_run_service_iam_member" "pusher_invokes_budgets" {
  project  = var.project_id
  location = var.region
  service  = google_cloudfunctions2_function.budgets.service_config[0].service
  role     = "roles/run.invoker"
  member   = "serviceAccount:${var.pusher_service_account_email}"
}

resource "google_pubsub_topic" "budget_ticks" {
  project = var.project_id
  name    = "usage-budget-ticks"
  # A tick older than a few minutes is worth nothing: the next one evaluates the same.
  message_retention_duration = "600s"
}

resource "google_pubsub_subscription" "budget_ticks" {
  project                    = var.project_id
  name                       = "usage-budget-ticks-push"
  topic                      = google_pubsub_topic.budget_ticks.id
  ack_deadline_seconds       = 600
  message_retention_duration = "600s"
  expiration_policy {
    ttl = ""
  }
  retry_policy {
    minimum_backoff = "10s"
    maximum_backoff = "300s"
  }
  push_config {
    push_endpoint = google_cloudfunctions2_function.budgets.service_config[0].uri
    oidc_token {
      service_account_email = var.pusher_service_account_email
    }
  }
}

resource "google_cloud_scheduler_job" "budgets" {
  project   = var.project_id
  name      = "usage-budgets"
  region    = var.region
  schedule  = var.budgets_schedule
  time_zone = "Etc/UTC"
  pubsub_target {
    topic_name = google_pubsub_topic.budget_ticks.id
    data       = base64encode("budgets")
  }
}
