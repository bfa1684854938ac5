# Service accounts and least-privilege grants. No primitive roles (owner, editor, viewer) anywhere.
variable "project_id" {
  description = "The Google Cloud project of the service accounts and grants."
  type        = string
}
variable "topic_id" {
  description = "The ingestion topic the gateway publishes to."
  type        = string
}
variable "records_topic_id" {
  description = "The records topic the worker publishes every stored record to (pubsub module)."
  type        = string
}
variable "records_database" {
  description = "The Firestore database of organizations, records, roll-ups and custom prices (firestore module)."
  type        = string
  default     = "(default)"
}
variable "keys_database" {
  description = "The Firestore database meant for `api_keys` alone (firestore module); the worker gets no access to it."
  type        = string
}
variable "pairing_database" {
  description = "The Firestore database where gateway instances pair OTLP spans (firestore module): the ingest gateway's only writable one."
  type        = string
}
variable "key_admins" {
  description = "Members (user:, group:, serviceAccount:) who manage API keys with the admin command line: read and write on the keys database only."
  type        = list(string)
  default     = []
}

# Firestore takes IAM conditions on the database and nothing finer: `resource.name ==
# "projects/P/databases/D"` limits a Firestore role to one database, and is enforced for the client
# libraries and the REST API (not in the console). Document paths cannot be named in a condition, so
# keys that must be out of the worker's reach live in a database of their own.
# https://cloud.google.com/firestore/docs/manage-databases#configure_per-database_access_permissions
locals {
  records_database_name = "projects/${var.project_id}/databases/${var.records_database}"
  keys_database_name    = "projects/${var.project_id}/databases/${var.keys_database}"
  pairing_database_name = "projects/${var.project_id}/databases/${var.pairing_database}"
}

resource "google_service_account" "gateway" {
  project      = var.project_id
  account_id   = "usage-gateway"
  display_name = "Usage ingestion gateway (Cloud Run)"
}

# The reports gateway (role reports) has an identity of its own: it writes (the management API, sign-in)
# where the ingest gateway only reads.
resource "google_service_account" "reports" {
  project      = var.project_id
  account_id   = "usage-reports"
  display_name = "Usage reports gateway: reports, management API, sign-in (Cloud Run)"
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

# The ingest gateway reads API keys and organizations (authentication): read-only, on the two databases
# and no other.
resource "google_project_iam_member" "gateway_reads_keys" {
  project = var.project_id
  role    = "roles/datastore.viewer"
  member  = "serviceAccount:${google_service_account.gateway.email}"
  condition {
    title       = "records-and-keys-databases"
    description = "Read the records database and the keys database only."
    expression  = "resource.name == \"${local.records_database_name}\" || resource.name == \"${local.keys_database_name}\""
  }
}

# One call billed once (docs/decisions/0034): the ingest gateway writes the slots of the OTLP spans it
# pairs, in their own database and no other.
resource "google_project_iam_member" "gateway_pairs_spans" {
  project = var.project_id
  role    = "roles/datastore.user"
  member  = "serviceAccount:${google_service_account.gateway.email}"
  condition {
    title       = "pairing-database-only"
    description = "Read and write the OTLP span pairing database only."
    expression  = "resource.name == \"${local.pairing_database_name}\""
  }
}

# The reports gateway reads records and roll-ups (reports) and writes what the management API and sign-in
# change: keys and their audit entries in the keys database; prices, budgets, webhooks, members, sessions
# and audit entries in the records database (docs/decisions/0024, 0025). Those two databases only.
resource "google_project_iam_member" "reports_writes_management" {
  project = var.project_id
  role    = "roles/datastore.user"
  member  = "serviceAccount:${google_service_account.reports.email}"
  condition {
    title       = "records-and-keys-databases"
    description = "Read and write the records database and the keys database only."
    expression  = "resource.name == \"${local.records_database_name}\" || resource.name == \"${local.keys_database_name}\""
  }
}

# The worker writes records, roll-ups, transaction id claims and rejected messages, and reads
# organizations (declared dimensions) and custom prices: all in the records database. The condition keeps
# it out of every other database, the keys database first.
resource "google_project_iam_member" "worker_writes_records" {
  project = var.project_id
  role    = "roles/datastore.user"
  member  = "serviceAccount:${google_service_account.worker.email}"
  condition {
    title       = "records-database-only"
    description = "Read and write the records database only; never the keys database."
    expression  = "resource.name == \"${local.records_database_name}\""
  }
}

# The reconciliation's Gemini reader queries a customer's billing export (docs/reconciliation.md): the
# query job runs in this project; reading the export's dataset is granted by the customer, on that
# dataset alone.
resource "google_project_iam_member" "worker_runs_billing_queries" {
  project = var.project_id
  role    = "roles/bigquery.jobUser"
  member  = "serviceAccount:${google_service_account.worker.email}"
}

# The worker publishes each record it stores to the records topic, and to no other topic.
resource "google_pubsub_topic_iam_member" "worker_publishes_records" {
  project = var.project_id
  topic   = var.records_topic_id
  role    = "roles/pubsub.publisher"
  member  = "serviceAccount:${google_service_account.worker.email}"
}

resource "google_project_iam_member" "key_admins" {
  for_each = toset(var.key_admins)
  project  = var.project_id
  role     = "roles/datastore.user"
  member   = each.value
  condition {
    title       = "keys-database-only"
    description = "Manage API keys: the keys database only."
    expression  = "resource.name == \"${local.keys_database_name}\""
  }
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

# The key the reports sign the records listing's page tokens with (PAGE_TOKEN_KEY,
# docs/decisions/0023-records-paging-on-a-snapshot.md), read by the reports gateway's identity alone. Terraform
# makes the secret, not its value (which would then sit in the state): add it once with
#   openssl rand -base64 32 | gcloud secrets versions add usage-page-token-key --data-file=-
resource "google_secret_manager_secret" "page_token_key" {
  project   = var.project_id
  secret_id = "usage-page-token-key"
  replication {
    auto {}
  }
}

resource "google_secret_manager_secret_iam_member" "reports_reads_page_token_key" {
  project   = var.project_id
  secret_id = google_secret_manager_secret.page_token_key.secret_id
  role      = "roles/secretmanager.secretAccessor"
  member    = "serviceAccount:${google_service_account.reports.email}"
}

output "gateway_email" {
  value = google_service_account.gateway.email
}
output "reports_email" {
  value = google_service_account.reports.email
}
output "worker_email" {
  value = google_service_account.worker.email
}
output "pusher_email" {
  value = google_service_account.pusher.email
}
output "pubsub_service_agent" {
  description = "Pub/Sub's service agent as an IAM member (serviceAccount:service-NUMBER@gcp-sa-pubsub.iam.gserviceaccount.com)."
  value       = "serviceAccount:service-${data.google_project.this.number}@gcp-sa-pubsub.iam.gserviceaccount.com"
}
output "page_token_key_secret" {
  description = "The secret holding PAGE_TOKEN_KEY; named through the reports gateway's grant, so a service given it deploys after the grant."
  value       = google_secret_manager_secret_iam_member.reports_reads_page_token_key.secret_id
}
