# The ingestion topic, its dead-letter topic, and the cost worker's push subscription with a retry
# policy (exponential backoff) and a dead-letter policy; and the records topic the worker publishes every
# stored record to (the analytics module's BigQuery subscription reads it). Names match scripts/lib/topology.ts.
variable "project_id" {
  description = "The Google Cloud project of the topics and subscriptions."
  type        = string
}
variable "topic_name" {
  description = "Must equal the gateway's PUBSUB_TOPIC."
  type        = string
  default     = "usage-transactions"
}
variable "records_topic_name" {
  description = "Must equal the worker's RECORDS_TOPIC: every stored record is published there for BigQuery."
  type        = string
  default     = "usage-records"
}
variable "max_delivery_attempts" {
  description = "Deliveries before a message moves to the dead-letter topic."
  type        = number
  default     = 5
}
variable "minimum_backoff" {
  description = "Shortest wait before a failed delivery is retried."
  type        = string
  default     = "10s"
}
variable "maximum_backoff" {
  description = "Longest wait before a failed delivery is retried."
  type        = string
  default     = "600s"
}

resource "google_pubsub_topic" "transactions" {
  project = var.project_id
  name    = var.topic_name
  # Keep a week of accepted transactions even if every subscription is lost: nothing accepted is lost.
  message_retention_duration = "604800s"
}

resource "google_pubsub_topic" "records" {
  project = var.project_id
  name    = var.records_topic_name
  # A week of stored records kept even if the BigQuery subscription is lost: it can be recreated and seeked.
  message_retention_duration = "604800s"
}

resource "google_pubsub_topic" "dead_letter" {
  project = var.project_id
  name    = "${var.topic_name}-dead-letter"
}

# Dead letters are kept here to be inspected and replayed; a topic without a subscription drops them.
resource "google_pubsub_subscription" "dead_letter_hold" {
  project                    = var.project_id
  name                       = "${var.topic_name}-dead-letter-hold"
  topic                      = google_pubsub_topic.dead_letter.id
  message_retention_duration = "604800s"
  expiration_policy {
    ttl = ""
  }
}

output "topic_id" {
  value = google_pubsub_topic.transactions.id
}
output "topic_name" {
  value = google_pubsub_topic.transactions.name
}
output "records_topic_id" {
  value = google_pubsub_topic.records.id
}
output "records_topic_name" {
  value = google_pubsub_topic.records.name
}
output "dead_letter_topic_id" {
  value = google_pubsub_topic.dead_letter.id
}
output "dead_letter_topic_name" {
  value = google_pubsub_topic.dead_letter.name
}
output "dead_letter_subscription_name" {
  value = google_pubsub_subscription.dead_letter_hold.name
}
