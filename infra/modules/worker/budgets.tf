# The budget evaluation step from the same code: a third function, `usage-budgets`, that Cloud Scheduler
# ticks every minute through Pub/Sub (the scheduled-function module). Each run reads every budget's spent
# and creates the outbox event of each threshold crossing with a create precondition, so a tick pushed
# twice, two instances or a restart never record an alert twice (docs/budgets.md, decision 0018).
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

# One instance, one tick at a time: a second at once would be safe (creates are preconditioned), only
# wasted. A run is bounded well inside a minute per organization by the variables above.
module "budgets" {
  source                       = "../scheduled-function"
  project_id                   = var.project_id
  region                       = var.region
  name                         = "usage-budgets"
  entry_point                  = "evaluateBudgets"
  runtime                      = local.runtime
  source_bucket                = google_storage_bucket.source.name
  source_object                = google_storage_bucket_object.source.name
  service_account_email        = var.service_account_email
  pusher_service_account_email = var.pusher_service_account_email
  environment_variables        = local.environment
  memory                       = "1Gi"
  timeout_seconds              = 540
  schedule                     = var.budgets_schedule
  tick_data                    = "budgets"
  ticks_topic                  = "usage-budget-ticks"
  ack_deadline_seconds         = 600
  maximum_backoff              = "300s"
}

# Declared here before the scheduled-function module: the state stays, no new function, topic or job.
moved {
  from = google_cloudfunctions2_function.budgets
  to   = module.budgets.google_cloudfunctions2_function.this
}
moved {
  from = google_cloud_run_service_iam_member.pusher_invokes_budgets
  to   = module.budgets.google_cloud_run_service_iam_member.pusher_invokes
}
moved {
  from = google_pubsub_topic.budget_ticks
  to   = module.budgets.google_pubsub_topic.ticks
}
moved {
  from = google_pubsub_subscription.budget_ticks
  to   = module.budgets.google_pubsub_subscription.ticks
}
moved {
  from = google_cloud_scheduler_job.budgets
  to   = module.budgets.google_cloud_scheduler_job.this
}
