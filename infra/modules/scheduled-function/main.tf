# One step of the worker's code that runs on a schedule: a Cloud Run function (Cloud Functions gen2) that
# Cloud Scheduler ticks through a topic of its own and a push subscription. The worker module deploys the
# fold, the budget evaluation and the webhook dispatch with it, so the chain is written once.
#
# One instance, one tick at a time: every run does whatever is due, so a second run at once would be safe,
# only wasted; a tick that fails is pushed again, and a lost one is made up by the next. Pub/Sub pushes to
# the function's run.app URL in this project, which internal-only ingress admits, with the pusher's OIDC
# token; the pusher alone may invoke the function (infra/README.md, "Security").
variable "project_id" {
  description = "The Google Cloud project of the function, its ticks topic and its Cloud Scheduler job."
  type        = string
}
variable "region" {
  description = "The region of the function and of its Cloud Scheduler job."
  type        = string
}
variable "name" {
  description = "The function's name; its Cloud Scheduler job has the same."
  type        = string
}
variable "entry_point" {
  description = "The function the worker's code registers for this step (services/cost-worker/src/function-name.ts)."
  type        = string
}
variable "runtime" {
  description = "The Cloud Run functions runtime; the worker module passes its own, so every function runs one Node.js line."
  type        = string
}
variable "source_bucket" {
  description = "The bucket holding the packaged worker (the worker module's)."
  type        = string
}
variable "source_object" {
  description = "The packaged worker's zip in source_bucket; a new object means a new build."
  type        = string
}
variable "service_account_email" {
  description = "The identity the function runs as (the worker's)."
  type        = string
}
variable "pusher_service_account_email" {
  description = "The Pub/Sub push identity: the OIDC token on each tick, and the only one allowed to invoke the function."
  type        = string
}
variable "environment_variables" {
  description = "The function's environment (the worker module gives each function the same)."
  type        = map(string)
}
variable "secret_environment_variables" {
  description = "Variables read from Secret Manager (name => secret id, its latest version); the caller grants the function's identity access."
  type        = map(string)
  default     = {}
}
variable "memory" {
  description = "Memory of the one instance, e.g. 1Gi."
  type        = string
}
variable "timeout_seconds" {
  description = "How long one run may take before Cloud Run ends it."
  type        = number
}
variable "schedule" {
  description = "When Cloud Scheduler ticks the function (cron, UTC)."
  type        = string
}
variable "tick_data" {
  description = "The tick message's body: the function ignores it, it only tells a reader of the topic which step it ticks."
  type        = string
}
variable "ticks_topic" {
  description = "The topic Cloud Scheduler publishes ticks to; its push subscription is named after it, with -push."
  type        = string
}
variable "ack_deadline_seconds" {
  description = "How long Pub/Sub waits for a pushed tick's answer before pushing it again: not less than timeout_seconds, at most 600."
  type        = number
  validation {
    condition     = var.ack_deadline_seconds >= 10 && var.ack_deadline_seconds <= 600
    error_message = "ack_deadline_seconds must be between 10 and 600 (Pub/Sub's bounds)."
  }
}
variable "maximum_backoff" {
  description = "Longest wait before Pub/Sub pushes a failed tick again (the shortest is 10s)."
  type        = string
}

resource "google_cloudfunctions2_function" "this" {
  project  = var.project_id
  name     = var.name
  location = var.region

  build_config {
    runtime     = var.runtime
    entry_point = var.entry_point
    source {
      storage_source {
        bucket = var.source_bucket
        object = var.source_object
      }
    }
  }

  service_config {
    service_account_email            = var.service_account_email
    max_instance_count               = 1
    max_instance_request_concurrency = 1
    available_cpu                    = "1"
    available_memory                 = var.memory
    timeout_seconds                  = var.timeout_seconds
    ingress_settings                 = "ALLOW_INTERNAL_ONLY"
    all_traffic_on_latest_revision   = true
    environment_variables            = var.environment_variables
    dynamic "secret_environment_variables" {
      for_each = var.secret_environment_variables
      content {
        project_id = var.project_id
        key        = secret_environment_variables.key
        secret     = secret_environment_variables.value
        version    = "latest"
      }
    }
  }
}

resource "google_cloud_run_service_iam_member" "pusher_invokes" {
  project  = var.project_id
  location = var.region
  service  = google_cloudfunctions2_function.this.service_config[0].service
  role     = "roles/run.invoker"
  member   = "serviceAccount:${var.pusher_service_account_email}"
}

resource "google_pubsub_topic" "ticks" {
  project = var.project_id
  name    = var.ticks_topic
  # A tick older than a few minutes is worth nothing: the next one does the same.
  message_retention_duration = "600s"
}

resource "google_pubsub_subscription" "ticks" {
  project = var.project_id
  name    = "${var.ticks_topic}-push"
  topic   = google_pubsub_topic.ticks.id
  # A run may take up to the function's timeout before it answers.
  ack_deadline_seconds       = var.ack_deadline_seconds
  message_retention_duration = "600s"
  expiration_policy {
    ttl = ""
  }
  retry_policy {
    minimum_backoff = "10s"
    maximum_backoff = var.maximum_backoff
  }
  push_config {
    push_endpoint = google_cloudfunctions2_function.this.service_config[0].uri
    oidc_token {
      service_account_email = var.pusher_service_account_email
    }
  }
}

resource "google_cloud_scheduler_job" "this" {
  project   = var.project_id
  name      = var.name
  region    = var.region
  schedule  = var.schedule
  time_zone = "Etc/UTC"
  pubsub_target {
    topic_name = google_pubsub_topic.ticks.id
    data       = base64encode(var.tick_data)
  }
}
