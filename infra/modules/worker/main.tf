# The cost worker as a Cloud Run function (Cloud Functions gen2), fed by the Pub/Sub push subscription
# of the pubsub module (its retry and dead-letter policies apply), and the fold step from the same code:
# a second function that Cloud Scheduler ticks through Pub/Sub (the scheduled-function module, which the
# budget evaluation in budgets.tf and the webhook dispatch in webhooks.tf use too); the webhook delivery
# function is in webhooks.tf. Every variable of services/cost-worker/src/env.ts is set on each function.
# No anonymous invocation: only the pusher may call them.
variable "project_id" {
  description = "The Google Cloud project of the function."
  type        = string
}
variable "region" {
  description = "The function's region."
  type        = string
}
variable "source_dir" {
  description = "The packaged worker: services/cost-worker/dist as `npm run package:worker` writes it (bundle, package.json, package-lock.json)."
  type        = string
}
variable "service_account_email" {
  description = "The worker's own identity (iam module): reads and writes the records database only."
  type        = string
}
variable "pusher_service_account_email" {
  description = "The Pub/Sub push identity, the only one allowed to invoke the worker."
  type        = string
}
variable "max_instances" {
  description = "Upper bound on instances."
  type        = number
  default     = 20
}
variable "concurrency" {
  description = "Messages one instance handles at once."
  type        = number
  default     = 20
}
variable "memory" {
  description = "Memory per instance; the heap is capped at 192 MB by NODE_OPTIONS."
  type        = string
  default     = "512Mi"
}
variable "custom_pricing_cache_ttl_ms" {
  description = "CUSTOM_PRICING_CACHE_TTL_MS: how long an organization's custom prices are cached."
  type        = number
  default     = 10000
}
variable "dimensions_cache_ttl_ms" {
  description = "DIMENSIONS_CACHE_TTL_MS: how long an organization's declared dimensions are cached."
  type        = number
  default     = 10000
}
variable "firestore_timeout_ms" {
  description = "FIRESTORE_TIMEOUT_MS: bound on one Firestore call; slower means redelivery."
  type        = number
  default     = 10000
}
variable "records_topic_name" {
  description = "RECORDS_TOPIC: the topic every stored record is published to for BigQuery (pubsub module's records topic)."
  type        = string
  default     = "usage-records"
}
variable "records_publish_timeout_ms" {
  description = "RECORDS_PUBLISH_TIMEOUT_MS: bound on publishing one stored record; slower means redelivery."
  type        = number
  default     = 10000
}

variable "fold_schedule" {
  description = "When the fold step runs (cron, UTC): it folds each ended day into summaries, and again any day changed since."
  type        = string
  default     = "* * * * *"
}
variable "fold_lookback_days" {
  description = "FOLD_LOOKBACK_DAYS: days back from today kept folded; older days without a summary are read from their shards."
  type        = number
  default     = 35
}
variable "fold_lookback_hours" {
  description = "FOLD_LOOKBACK_HOURS: hours back from this hour kept folded; older hours without a summary are read from their records."
  type        = number
  default     = 48
}
variable "fold_max_periods" {
  description = "FOLD_MAX_PERIODS: days, hours, open hours and months folded in one run at most (the rest in the next)."
  type        = number
  default     = 200
}
variable "commit_transport" {
  description = "FIRESTORE_COMMIT_TRANSPORT: wire (our own Commit call) or client (@google-cloud/firestore's). Switch to client to fall back without a new build: docs/decisions/0016-production-safe-transports.md."
  type        = string
  default     = "wire"
  validation {
    condition     = contains(["wire", "client"], var.commit_transport)
    error_message = "commit_transport must be wire or client."
  }
}
variable "publish_transport" {
  description = "PUBSUB_PUBLISH_TRANSPORT: how the records feed publishes, wire (our own Publish call, the gateway's) or client (@google-cloud/pubsub's). Switch to client to fall back without a new build: docs/decisions/0016-production-safe-transports.md."
  type        = string
  default     = "wire"
  validation {
    condition     = contains(["wire", "client"], var.publish_transport)
    error_message = "publish_transport must be wire or client."
  }
}
variable "universe_domain" {
  description = "GOOGLE_CLOUD_UNIVERSE_DOMAIN: the Google Cloud universe the clients and our own calls address."
  type        = string
  default     = "googleapis.com"
}

locals {
  # One Node.js line for every function (test/infra/runtime.test.ts holds it to the toolchain's).
  runtime = "nodejs24"
  environment = {
    GOOGLE_CLOUD_PROJECT         = var.project_id
    CUSTOM_PRICING_CACHE_TTL_MS  = tostring(var.custom_pricing_cache_ttl_ms)
    DIMENSIONS_CACHE_TTL_MS      = tostring(var.dimensions_cache_ttl_ms)
    FIRESTORE_TIMEOUT_MS         = tostring(var.firestore_timeout_ms)
    FIRESTORE_COMMIT_TRANSPORT   = var.commit_transport
    GOOGLE_CLOUD_UNIVERSE_DOMAIN = var.universe_domain
    FOLD_LOOKBACK_DAYS           = tostring(var.fold_lookback_days)
    FOLD_LOOKBACK_HOURS          = tostring(var.fold_lookback_hours)
    FOLD_MAX_PERIODS             = tostring(var.fold_max_periods)
    BUDGETS_MAX_DOCUMENTS        = tostring(var.budgets_max_documents)
    BUDGETS_TIMEOUT_MS           = tostring(var.budgets_timeout_ms)
    RECORDS_TOPIC                = var.records_topic_name
    RECORDS_PUBLISH_TIMEOUT_MS   = tostring(var.records_publish_timeout_ms)
    PUBSUB_PUBLISH_TRANSPORT     = var.publish_transport
    LOG_FORMAT                   = "json"
    WEBHOOK_DELIVERIES_TOPIC     = local.webhook_deliveries_topic
    WEBHOOK_TIMEOUT_MS           = tostring(var.webhook_timeout_ms)
    WEBHOOK_SWEEP_AFTER_MS       = tostring(var.webhook_sweep_after_ms)
    WEBHOOK_RETRY_WINDOW_MS      = tostring(var.webhook_retry_window_ms)
    RECONCILE_OPENAI_BASE_URL    = var.reconcile_openai_base_url
    RECONCILE_ANTHROPIC_BASE_URL = var.reconcile_anthropic_base_url
    RECONCILE_LOOKBACK_DAYS      = tostring(var.reconcile_lookback_days)
    NODE_OPTIONS                 = "--max-old-space-size=192 --max-semi-space-size=16"
  }
}

resource "google_storage_bucket" "source" {
  project                     = var.project_id
  name                        = "${var.project_id}-usage-worker-source"
  location                    = var.region
  uniform_bucket_level_access = true
  public_access_prevention    = "enforced"
}

data "archive_file" "source" {
  type        = "zip"
  source_dir  = var.source_dir
  output_path = "${path.module}/.build/cost-worker.zip"
  excludes    = ["*.map"]
}

resource "google_storage_bucket_object" "source" {
  name   = "cost-worker-${data.archive_file.source.output_md5}.zip"
  bucket = google_storage_bucket.source.name
  source = data.archive_file.source.output_path
}

resource "google_cloudfunctions2_function" "worker" {
  project  = var.project_id
  name     = "usage-cost-worker"
  location = var.region

  build_config {
    runtime     = local.runtime
    entry_point = "priceUsage"
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
    # Internal traffic only. Pub/Sub counts as internal for a Cloud Run service (which is what a Cloud Run
    # function is) when the subscription is in the same project or VPC Service Controls perimeter and
    # pushes to the default run.app URL, not a custom domain: the push endpoint is `url` below
    # (service_config.uri, the run.app URL), and the pubsub module's subscription is in this project.
    # https://cloud.google.com/run/docs/securing/ingress#settings
    # (The functions page, /functions/docs/networking/network-settings, names Eventarc but not Pub/Sub;
    # the run.app URL is the Cloud Run service's, so the Cloud Run page governs it. How to check after a
    # deploy, and the fallback: infra/README.md, "Security".)
    # The OIDC token on the push stays: ingress decides where a request may come from, roles/run.invoker
    # (the pusher only) who may call.
    ingress_settings               = "ALLOW_INTERNAL_ONLY"
    all_traffic_on_latest_revision = true
    environment_variables          = local.environment
  }
}

# Only Pub/Sub's push identity may invoke the worker.
resource "google_cloud_run_service_iam_member" "pusher_invokes" {
  project  = var.project_id
  location = var.region
  service  = google_cloudfunctions2_function.worker.service_config[0].service
  role     = "roles/run.invoker"
  member   = "serviceAccount:${var.pusher_service_account_email}"
}

# The fold step from the same code, ticked every minute by default (fold_schedule), up to 9 minutes a run:
# it folds whatever is due, so a lost tick is made up by the next.
module "fold" {
  source                       = "../scheduled-function"
  project_id                   = var.project_id
  region                       = var.region
  name                         = "usage-fold"
  entry_point                  = "foldSummaries"
  runtime                      = local.runtime
  source_bucket                = google_storage_bucket.source.name
  source_object                = google_storage_bucket_object.source.name
  service_account_email        = var.service_account_email
  pusher_service_account_email = var.pusher_service_account_email
  environment_variables        = local.environment
  memory                       = "1Gi"
  timeout_seconds              = 540
  schedule                     = var.fold_schedule
  tick_data                    = "fold"
  ticks_topic                  = "usage-fold-ticks"
  ack_deadline_seconds         = 600
  maximum_backoff              = "300s"
}

# The fold chain's resources were declared here before the scheduled-function module: these keep their
# state, so a deployment from before plans moves, not a new function, topic and job in place of the old.
moved {
  from = google_cloudfunctions2_function.fold
  to   = module.fold.google_cloudfunctions2_function.this
}
moved {
  from = google_cloud_run_service_iam_member.pusher_invokes_fold
  to   = module.fold.google_cloud_run_service_iam_member.pusher_invokes
}
moved {
  from = google_pubsub_topic.fold_ticks
  to   = module.fold.google_pubsub_topic.ticks
}
moved {
  from = google_pubsub_subscription.fold_ticks
  to   = module.fold.google_pubsub_subscription.ticks
}
moved {
  from = google_cloud_scheduler_job.fold
  to   = module.fold.google_cloud_scheduler_job.this
}

output "url" {
  description = "The function's run.app URL: the push endpoint must be this URL for internal-only ingress to admit Pub/Sub."
  value       = google_cloudfunctions2_function.worker.service_config[0].uri
}
