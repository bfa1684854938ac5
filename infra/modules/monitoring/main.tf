# Alerts: anything in a dead-letter topic (transactions, webhook deliveries, record rows), and a worker that
# falls behind.
variable "project_id" {
  description = "The Google Cloud project of the alert policies."
  type        = string
}
variable "subscription_name" {
  description = "The worker's push subscription (oldest unacked message alert)."
  type        = string
}
variable "dead_letter_subscription_name" {
  description = "The dead-letter hold subscription (alert when it holds messages)."
  type        = string
}
variable "dead_letter_holds" {
  description = "Other dead-letter hold subscriptions, each alerted on when it holds messages: what it holds and what to do."
  type = map(object({
    subscription = string
    holds        = string
    action       = string
  }))
  default = {}
}
variable "oldest_unacked_age_seconds" {
  description = "Alert when the oldest undelivered transaction is older than this."
  type        = number
  default     = 600
}
variable "notification_channels" {
  description = "Monitoring notification channel ids the alerts notify."
  type        = list(string)
  default     = []
}

locals {
  # Every dead-letter hold subscription alerted on: the transactions' own, then the others given.
  dead_letter_holds = merge({
    transactions = {
      subscription = var.dead_letter_subscription_name
      holds        = "transactions"
      action       = "Transactions failed pricing 5 times and were dead-lettered. Inspect the hold subscription, fix the cause, then replay them to the main topic (docs/operations.md, \"Dead letters\")."
    }
  }, var.dead_letter_holds)
}

# The transactions' alert was a resource of its own before the others joined it.
moved {
  from = google_monitoring_alert_policy.dead_letters
  to   = google_monitoring_alert_policy.dead_letter_holds["transactions"]
}

resource "google_monitoring_alert_policy" "dead_letter_holds" {
  for_each              = local.dead_letter_holds
  project               = var.project_id
  display_name          = "Usage ingestion: ${each.value.holds} in the dead-letter topic (${each.value.subscription})"
  combiner              = "OR"
  notification_channels = var.notification_channels
  conditions {
    display_name = "Dead-lettered messages waiting"
    condition_threshold {
      filter          = "resource.type = \"pubsub_subscription\" AND resource.labels.subscription_id = \"${each.value.subscription}\" AND metric.type = \"pubsub.googleapis.com/subscription/num_undelivered_messages\""
      comparison      = "COMPARISON_GT"
      threshold_value = 0
      duration        = "60s"
      aggregations {
        alignment_period   = "60s"
        per_series_aligner = "ALIGN_MAX"
      }
    }
  }
  documentation {
    content = each.value.action
  }
}

resource "google_monitoring_alert_policy" "worker_lag" {
  project               = var.project_id
  display_name          = "Usage ingestion: cost worker falling behind"
  combiner              = "OR"
  notification_channels = var.notification_channels
  conditions {
    display_name = "Oldest unacked message age"
    condition_threshold {
      filter          = "resource.type = \"pubsub_subscription\" AND resource.labels.subscription_id = \"${var.subscription_name}\" AND metric.type = \"pubsub.googleapis.com/subscription/oldest_unacked_message_age\""
      comparison      = "COMPARISON_GT"
      threshold_value = var.oldest_unacked_age_seconds
      duration        = "300s"
      aggregations {
        alignment_period   = "60s"
        per_series_aligner = "ALIGN_MAX"
      }
    }
  }
}
