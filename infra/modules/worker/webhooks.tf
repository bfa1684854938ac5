# Budget-event webhooks (docs/webhooks.md), from the worker's code: the dispatch step, which Cloud Scheduler
# ticks every minute, fans new events out into deliveries and queues one message per delivery on the
# deliveries topic; the delivery function, pushed each message, posts it signed and fails until the
# receiver answers 2xx. Pub/Sub retries with backoff from 10 s to 600 s and dead-letters after 100
# attempts (about 15.7 hours); the dispatch's sweep queues a delivery again once nothing touched it for
# WEBHOOK_SWEEP_AFTER_MS, until WEBHOOK_RETRY_WINDOW_MS (a day) has passed. Signing secrets are sealed
# with WEBHOOK_SECRET_KEY, from Secret Manager, given to the delivery function and to the reports gateway
# (the management API creates webhooks and rotates their secrets; it also queues replays).
variable "reports_service_account_email" {
  description = "The reports gateway's identity (iam module): reads the webhook secret key and queues replays on the deliveries topic, nothing more here."
  type        = string
}
variable "pubsub_service_agent" {
  description = "Pub/Sub's service agent, which moves undeliverable webhook deliveries to their dead-letter topic."
  type        = string
}
variable "webhook_timeout_ms" {
  description = "WEBHOOK_TIMEOUT_MS: bound on one POST to a receiver, its answer included."
  type        = number
  default     = 10000
}
variable "webhook_sweep_after_ms" {
  description = "WEBHOOK_SWEEP_AFTER_MS: a pending delivery untouched this long is queued again; must exceed webhook_maximum_backoff plus a POST."
  type        = number
  default     = 900000
}
variable "webhook_retry_window_ms" {
  description = "WEBHOOK_RETRY_WINDOW_MS: how long a delivery is retried before it is marked failed (at least a day)."
  type        = number
  default     = 86400000
  validation {
    condition     = var.webhook_retry_window_ms >= 86400000
    error_message = "webhook_retry_window_ms must be at least 86400000 (24 hours)."
  }
}
variable "webhook_minimum_backoff" {
  description = "Shortest wait before Pub/Sub pushes a failed delivery again."
  type        = string
  default     = "10s"
}
variable "webhook_maximum_backoff" {
  description = "Longest wait before Pub/Sub pushes a failed delivery again (600s is Pub/Sub's most)."
  type        = string
  default     = "600s"
}
variable "webhook_max_delivery_attempts" {
  description = "Pushes of one delivery message before it is dead-lettered (100 is Pub/Sub's most); the sweep queues it again."
  type        = number
  default     = 100
}

locals {
  webhook_deliveries_topic = "usage-webhook-deliveries"
}

# The key that seals webhook secrets. Terraform makes the secret, not its value (which would then sit in
# the state): add it once with
#   openssl rand -base64 32 | gcloud secrets versions add usage-webhook-secret-key --data-file=-
resource "google_secret_manager_secret" "webhook_secret_key" {
  project   = var.project_id
  secret_id = "usage-webhook-secret-key"
  replication {
    auto {}
  }
}

resource "google_secret_manager_secret_iam_member" "worker_reads_webhook_key" {
  project   = var.project_id
  secret_id = google_secret_manager_secret.webhook_secret_key.secret_id
  role      = "roles/secretmanager.secretAccessor"
  member    = "serviceAccount:${var.service_account_email}"
}

# The management API seals the secrets of the webhooks it creates or rotates with the same key.
resource "google_secret_manager_secret_iam_member" "reports_reads_webhook_key" {
  project   = var.project_id
  secret_id = google_secret_manager_secret.webhook_secret_key.secret_id
  role      = "roles/secretmanager.secretAccessor"
  member    = "serviceAccount:${var.reports_service_account_email}"
}

resource "google_pubsub_topic" "webhook_deliveries" {
  project                    = var.project_id
  name                       = local.webhook_deliveries_topic
  message_retention_duration = "604800s"
}

resource "google_pubsub_topic" "webhook_dead_letter" {
  project = var.project_id
  name    = "${local.webhook_deliveries_topic}-dead-letter"
}

# Dead letters kept for a week to look at; the delivery's own state (Firestore) is what the sweep acts on.
resource "google_pubsub_subscription" "webhook_dead_letter_hold" {
  project                    = var.project_id
  name                       = "${local.webhook_deliveries_topic}-dead-letter-hold"
  topic                      = google_pubsub_topic.webhook_dead_letter.id
  message_retention_duration = "604800s"
  expiration_policy {
    ttl = ""
  }
}

# The dispatch and the sweep publish deliveries.
resource "google_pubsub_topic_iam_member" "worker_queues_deliveries" {
  project = var.project_id
  topic   = google_pubsub_topic.webhook_deliveries.id
  role    = "roles/pubsub.publisher"
  member  = "serviceAccount:${var.service_account_email}"
}

# A replay through the management API queues its delivery again: this topic only.
resource "google_pubsub_topic_iam_member" "reports_queues_replays" {
  project = var.project_id
  topic   = google_pubsub_topic.webhook_deliveries.id
  role    = "roles/pubsub.publisher"
  member  = "serviceAccount:${var.reports_service_account_email}"
}

resource "google_cloudfunctions2_function" "webhooks" {
  project  = var.project_id
  name     = "usage-webhooks"
  location = var.region

  build_config {
    runtime     = local.runtime
    entry_point = "deliverWebhooks"
    source {
      storage_source {
        bucket = google_storage_bucket.source.name
        object = google_storage_bucket_object.source.name
      }
    }
  }

  service_config {
    service_account_email            = var.service_account_email
    max_instance_count               = var.max_instances
    max_instance_request_concurrency = var.concurrency
    available_cpu                    = "1"
    available_memory                 = var.memory
    timeout_seconds                  = 60
    ingress_settings                 = "ALLOW_INTERNAL_ONLY"
    all_traffic_on_latest_revision   = true
    environment_variables            = local.environment
    secret_environment_variables {
      project_id = var.project_id
      key        = "WEBHOOK_SECRET_KEY"
      secret     = google_secret_manager_secret.webhook_secret_key.secret_id
      version    = "latest"
    }
  }
  depends_on = [google_secret_manager_secret_iam_member.worker_reads_webhook_key]
}

resource "google_cloud_run_service_iam_member" "pusher_invokes_webhooks" {
  project  = var.project_id
  location = var.region
  service  = google_cloudfunctions2_function.webhooks.service_config[0].service
  role     = "roles/run.invoker"
  member   = "serviceAccount:${var.pusher_service_account_email}"
}

resource "google_pubsub_subscription" "webhook_deliveries" {
  project = var.project_id
  name    = "${local.webhook_deliveries_topic}-push"
  topic   = google_pubsub_topic.webhook_deliveries.id
  # A push waits for one POST (WEBHOOK_TIMEOUT_MS) and two Firestore writes.
  ack_deadline_seconds       = 60
  message_retention_duration = "604800s"
  expiration_policy {
    ttl = ""
  }
  push_config {
    push_endpoint = google_cloudfunctions2_function.webhooks.service_config[0].uri
    oidc_token {
      service_account_email = var.pusher_service_account_email
    }
  }
  retry_policy {
    minimum_backoff = var.webhook_minimum_backoff
    maximum_backoff = var.webhook_maximum_backoff
  }
  dead_letter_policy {
    dead_letter_topic     = google_pubsub_topic.webhook_dead_letter.id
    max_delivery_attempts = var.webhook_max_delivery_attempts
  }
}

resource "google_pubsub_topic_iam_member" "agent_publishes_webhook_dead_letters" {
  project = var.project_id
  topic   = google_pubsub_topic.webhook_dead_letter.id
  role    = "roles/pubsub.publisher"
  member  = var.pubsub_service_agent
}

resource "google_pubsub_subscription_iam_member" "agent_acks_webhook_deliveries" {
  project      = var.project_id
  subscription = google_pubsub_subscription.webhook_deliveries.id
  role         = "roles/pubsub.subscriber"
  member       = var.pubsub_service_agent
}

# The dispatch step: one instance, one tick at a time, as the fold step; up to 5 minutes a run, and a
# failed tick is pushed again within a minute. It gets the environment but not WEBHOOK_SECRET_KEY: it
# queues deliveries, and only the delivery function signs them.
module "webhook_dispatch" {
  source                       = "../scheduled-function"
  project_id                   = var.project_id
  region                       = var.region
  name                         = "usage-webhook-dispatch"
  entry_point                  = "dispatchWebhooks"
  runtime                      = local.runtime
  source_bucket                = google_storage_bucket.source.name
  source_object                = google_storage_bucket_object.source.name
  service_account_email        = var.service_account_email
  pusher_service_account_email = var.pusher_service_account_email
  environment_variables        = local.environment
  memory                       = "512Mi"
  timeout_seconds              = 300
  schedule                     = "* * * * *"
  tick_data                    = "dispatch"
  ticks_topic                  = "usage-webhook-dispatch-ticks"
  ack_deadline_seconds         = 300
  maximum_backoff              = "60s"
}

# Declared here before the scheduled-function module: the state stays, no new function, topic or job.
moved {
  from = google_cloudfunctions2_function.webhook_dispatch
  to   = module.webhook_dispatch.google_cloudfunctions2_function.this
}
moved {
  from = google_cloud_run_service_iam_member.pusher_invokes_webhook_dispatch
  to   = module.webhook_dispatch.google_cloud_run_service_iam_member.pusher_invokes
}
moved {
  from = google_pubsub_topic.webhook_dispatch_ticks
  to   = module.webhook_dispatch.google_pubsub_topic.ticks
}
moved {
  from = google_pubsub_subscription.webhook_dispatch_ticks
  to   = module.webhook_dispatch.google_pubsub_subscription.ticks
}
moved {
  from = google_cloud_scheduler_job.webhook_dispatch
  to   = module.webhook_dispatch.google_cloud_scheduler_job.this
}

output "webhook_dead_letter_subscription_name" {
  description = "Deliveries Pub/Sub gave up on (the sweep still retries them until their window ends); monitored."
  value       = google_pubsub_subscription.webhook_dead_letter_hold.name
}
output "webhook_secret_key_secret" {
  description = "The secret holding WEBHOOK_SECRET_KEY; named through the reports gateway's grant, so a service given it deploys after the grant."
  value       = google_secret_manager_secret_iam_member.reports_reads_webhook_key.secret_id
}
output "webhook_deliveries_topic" {
  description = "The deliveries topic's name (WEBHOOK_DELIVERIES_TOPIC), where the reports gateway queues replays."
  value       = google_pubsub_topic.webhook_deliveries.name
}
