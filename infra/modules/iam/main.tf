# Service accounts and least-privilege grants. No primitive roles (owner, editor, viewer) anywhere.
variable "project_id" {
  description = "The Google Cloud project of the service accounts and grants."
  type        = string
}
variable "topic_id" {
  description = "The ingestion topic the gateway publishes to."
  type        = string
}

resource "google_service_account" "gateway" {
  project      = var.project_id
  account_id   = "usage-gateway"
  display_name = "Usage ingestion gateway (Cloud Run)"
}

resource "google_service_account" "worker" {
  project      = var.project_id
  account_id   = "usage-cost-worker"
  display_name = "Usage cost worker (Cloud Run function)"
}

resource "google_service_account" "pusher" {
  project      = var.project_id
  account_id   = "usage-pubsub-pusher"
  display_name = "Identity Pub/Sub pushes to the cost worker with"
}

# The gateway publishes to its one topic, nothing else.
resource "google_pubsub_topic_iam_member" "gateway_publishes" {
  project = var.project_id
  topic   = var.topic_id
  role    = "roles/pubsub.publisher"
  member  = "serviceAccount:${google_service_account.gateway.email}"
}

# The gateway reads API keys and organizations. Firestore roles are project-wide: read-only is the least.
resource "google_project_iam_member" "gateway_reads_keys" {
  project = var.project_id
  role    = "roles/datastore.viewer"
  member  = "serviceAccount:${google_service_account.gateway.email}"
}

# The worker writes cost records and rejected messages and reads custom prices.
resource "google_project_iam_member" "worker_writes_records" {
  project = var.project_id
  role    = "roles/datastore.user"
  member  = "serviceAccount:${google_service_account.worker.email}"
}

data "google_project" "this" {
  project_id = var.project_id
}

# Pub/Sub's service agent signs the push's OIDC token as the pusher account.
resource "google_service_account_iam_member" "pubsub_agent_mints_push_tokens" {
  service_account_id = google_service_account.pusher.name
  role               = "roles/iam.serviceAccountTokenCreator"
  member             = "serviceAccount:service-${data.google_project.this.number}@gcp-sa-pubsub.iam.gserviceaccount.com"
}

output "gateway_email" {
  value = google_service_account.gateway.email
}
output "worker_email" {
  value = google_service_account.worker.email
}
output "pusher_email" {
  value = google_service_account.pusher.email
}
output "pubsub_service_agent" {
  value = "serviceAccount:service-${data.google_project.this.number}@gcp-sa-pubsub.iam.gserviceaccount.com"
}
