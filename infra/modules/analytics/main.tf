# Past Firestore: every accepted transaction streamed into BigQuery by a Pub/Sub BigQuery subscription on
# the usage topic (no code in between), into a table partitioned by publish day and clustered by
# subscription and message id. Reports over years or millions of customers are SQL over this table; a
# message delivered twice lands twice, so queries keep one row per message_id (see docs/reports.md, "Past Firestore").
variable "project_id" {
  description = "The Google Cloud project."
  type        = string
}
variable "location" {
  description = "BigQuery location, e.g. US or EU (the multi-region holding the Firestore location)."
  type        = string
  default     = "US"
}
variable "topic_id" {
  description = "The usage topic the gateway publishes to."
  type        = string
}
variable "pubsub_service_agent" {
  description = "service-<number>@gcp-sa-pubsub.iam.gserviceaccount.com, which writes the rows."
  type        = string
}
variable "dataset_id" {
  description = "The BigQuery dataset the transactions are streamed into."
  type        = string
  default     = "usage"
}

resource "google_project_service" "bigquery" {
  project            = var.project_id
  service            = "bigquery.googleapis.com"
  disable_on_destroy = false
}

resource "google_bigquery_dataset" "usage" {
  project       = var.project_id
  dataset_id    = var.dataset_id
  location      = var.location
  description   = "Accepted usage transactions, streamed from Pub/Sub."
  depends_on    = [google_project_service.bigquery]
  friendly_name = "Usage"
}

# The columns a BigQuery subscription writes with write_metadata: the message and its Pub/Sub metadata.
resource "google_bigquery_table" "transactions" {
  project             = var.project_id
  dataset_id          = google_bigquery_dataset.usage.dataset_id
  table_id            = "transactions"
  deletion_protection = true
  time_partitioning {
    type  = "DAY"
    field = "publish_time"
  }
  clustering = ["message_id"]
  schema = jsonencode([
    { name = "subscription_name", type = "STRING", mode = "NULLABLE" },
    { name = "message_id", type = "STRING", mode = "NULLABLE" },
    { name = "publish_time", type = "TIMESTAMP", mode = "NULLABLE" },
    { name = "data", type = "JSON", mode = "NULLABLE", description = "The queue message: organization, receive time, transaction." },
    { name = "attributes", type = "JSON", mode = "NULLABLE" },
  ])
}

resource "google_bigquery_dataset_iam_member" "pubsub_writes" {
  project    = var.project_id
  dataset_id = google_bigquery_dataset.usage.dataset_id
  role       = "roles/bigquery.dataEditor"
  member     = "serviceAccount:${var.pubsub_service_agent}"
}

resource "google_pubsub_subscription" "to_bigquery" {
  project = var.project_id
  name    = "usage-transactions-bigquery"
  topic   = var.topic_id
  bigquery_config {
    table          = "${var.project_id}.${google_bigquery_dataset.usage.dataset_id}.${google_bigquery_table.transactions.table_id}"
    write_metadata = true
  }
  message_retention_duration = "604800s"
  depends_on                 = [google_bigquery_dataset_iam_member.pubsub_writes]
}

output "table" {
  value = "${var.project_id}.${google_bigquery_dataset.usage.dataset_id}.${google_bigquery_table.transactions.table_id}"
}
