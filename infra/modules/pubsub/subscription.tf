variable "push_endpoint" {
  description = "The cost worker's URL, with the topic path so the CloudEvent's source names the topic."
  type        = string
}
variable "push_service_account_email" {
  description = "The identity in the push's OIDC token; it may invoke the worker."
  type        = string
}
variable "pubsub_service_agent" {
  description = "Pub/Sub's service agent, which moves messages to the dead-letter topic."
  type        = string
}

resource "google_pubsub_subscription" "cost_worker" {
  project              = var.project_id
  name                 = "${var.topic_name}-cost-worker"
  topic                = google_pubsub_topic.transactions.id
  ack_deadline_seconds = 60
  # Redelivery is safe: the worker writes each message's record once.
  retain_acked_messages      = false
  message_retention_duration = "604800s"
  expiration_policy {
    ttl = ""
  }

  push_config {
    push_endpoint = var.push_endpoint
    oidc_token {
      service_account_email = var.push_service_account_email
    }
  }

  retry_policy {
    minimum_backoff = var.minimum_backoff
    maximum_backoff = var.maximum_backoff
  }

  dead_letter_policy {
    dead_letter_topic     = google_pubsub_topic.dead_letter.id
    max_delivery_attempts = var.max_delivery_attempts
  }
}

# Dead-lettering needs the service agent to publish to the dead-letter topic and to acknowledge on the
# source subscription.
resource "google_pubsub_topic_iam_member" "agent_publishes_dead_letters" {
  project = var.project_id
  topic   = google_pubsub_topic.dead_letter.id
  role    = "roles/pubsub.publisher"
  member  = var.pubsub_service_agent
}

resource "google_pubsub_subscription_iam_member" "agent_acks_source" {
  project      = var.project_id
  subscription = google_pubsub_subscription.cost_worker.id
  role         = "roles/pubsub.subscriber"
  member       = var.pubsub_service_agent
}

output "subscription_name" {
  value = google_pubsub_subscription.cost_worker.name
}
