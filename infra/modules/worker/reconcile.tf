# Reconciliation with the vendors' own reports (docs/reconciliation.md): a function of its own,
# `usage-reconcile`, ticked through Pub/Sub like the other scheduled steps. Each tick queues every
# connected organization's run of the day (once a day: the id is the day's) and takes up the queued
# runs, those asked for through the management API included. It opens the vendors' credentials with the
# key webhook secrets are sealed with.
variable "reconcile_schedule" {
  description = "When the reconciliation job runs (cron, UTC): a run asked for through the API waits at most this long."
  type        = string
  default     = "*/10 * * * *"
}
variable "reconcile_openai_base_url" {
  description = "RECONCILE_OPENAI_BASE_URL: OpenAI's API, or a proxy in front of it."
  type        = string
  default     = "https://api.openai.com"
}
variable "reconcile_anthropic_base_url" {
  description = "RECONCILE_ANTHROPIC_BASE_URL: Anthropic's API, or a proxy in front of it."
  type        = string
  default     = "https://api.anthropic.com"
}
variable "reconcile_lookback_days" {
  description = "RECONCILE_LOOKBACK_DAYS: whole days each day's run reads again (the vendors restate recent days)."
  type        = number
  default     = 7
}

module "reconcile" {
  source                       = "../scheduled-function"
  project_id                   = var.project_id
  region                       = var.region
  name                         = "usage-reconcile"
  entry_point                  = "reconcileVendors"
  runtime                      = local.runtime
  source_bucket                = google_storage_bucket.source.name
  source_object                = google_storage_bucket_object.source.name
  service_account_email        = var.service_account_email
  pusher_service_account_email = var.pusher_service_account_email
  environment_variables        = local.environment
  secret_environment_variables = { WEBHOOK_SECRET_KEY = google_secret_manager_secret.webhook_secret_key.secret_id }
  memory                       = "1Gi"
  timeout_seconds              = 540
  schedule                     = var.reconcile_schedule
  tick_data                    = "reconcile"
  ticks_topic                  = "usage-reconcile-ticks"
  ack_deadline_seconds         = 600
  maximum_backoff              = "300s"
  depends_on                   = [google_secret_manager_secret_iam_member.worker_reads_webhook_key]
}
