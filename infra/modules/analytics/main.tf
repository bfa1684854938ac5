# Raw transactions: every accepted queue message streamed into BigQuery by a Pub/Sub BigQuery subscription
# on the usage topic (no code in between), into a table partitioned by publish day and clustered by message
# id. These rows have no price, status or duplicate decision: cost queries read the stored records in
# `records` (records.tf, docs/reports.md, "Past Firestore"). A message delivered twice lands twice.
# Rows carry every tenant's raw context: partitions expire (partition_expiration_days, 400 by default) and
# organization_readers limits a reader to one organization's rows.
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
  description = "Pub/Sub's service agent as an IAM member, serviceAccount:service-<number>@gcp-sa-pubsub.iam.gserviceaccount.com (the iam module's output): it writes the rows."
  type        = string
  validation {
    condition     = startswith(var.pubsub_service_agent, "serviceAccount:")
    error_message = "pubsub_service_agent must be an IAM member: serviceAccount:service-<number>@gcp-sa-pubsub.iam.gserviceaccount.com."
  }
}
variable "dataset_id" {
  description = "The BigQuery dataset the transactions are streamed into."
  type        = string
  default     = "usage"
}
variable "partition_expiration_days" {
  description = "Days a day's partition of raw transactions (every tenant's context included) is kept before BigQuery deletes it. Also the dataset's default for partitioned tables added later."
  type        = number
  default     = 400
  validation {
    condition     = var.partition_expiration_days >= 1 && floor(var.partition_expiration_days) == var.partition_expiration_days
    error_message = "partition_expiration_days must be a whole number of days, at least 1."
  }
}
variable "organization_readers" {
  description = "Per-organization read access to the transactions table: organization id => members (group:, user:, serviceAccount:) who may read that organization's rows and no other's. Empty (the default) adds no row access policy."
  type        = map(list(string))
  default     = {}
  validation {
    # Organization ids as the admin command line makes them; the id is written into the policy's SQL filter.
    condition     = alltrue([for id in keys(var.organization_readers) : can(regex("^[a-z0-9][a-z0-9_-]{0,62}$", id))])
    error_message = "organization_readers keys must be organization ids: 1-63 lower-case letters, digits, \"-\" or \"_\"."
  }
}
variable "all_rows_readers" {
  description = "Members who read every organization's rows (operators, the queries of docs/reports.md) once row access policies exist: a table with any row access policy shows a reader only the rows some policy grants them."
  type        = list(string)
  default     = []
}

locals {
  partition_expiration_ms = var.partition_expiration_days * 24 * 60 * 60 * 1000
  # Row access policies exist only when organizations are listed: with none, the table reads as before.
  row_policies_on = length(var.organization_readers) > 0
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
  # Partitioned tables created in this dataset later expire their partitions after the same time.
  default_partition_expiration_ms = local.partition_expiration_ms
}

# The columns a BigQuery subscription writes with write_metadata: the message and its Pub/Sub metadata.
resource "google_bigquery_table" "transactions" {
  project             = var.project_id
  dataset_id          = google_bigquery_dataset.usage.dataset_id
  table_id            = "transactions"
  deletion_protection = true
  # A day's partition is deleted partition_expiration_days after that day: raw context is not kept forever.
  time_partitioning {
    type          = "DAY"
    field         = "publish_time"
    expiration_ms = local.partition_expiration_ms
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

# Pub/Sub's service agent writes the rows of this table; the records table has its own grant (records.tf).
# On the table, not the dataset: a dataset-wide grant would let it write (or delete) any table there.
resource "google_bigquery_table_iam_member" "pubsub_writes" {
  project    = var.project_id
  dataset_id = google_bigquery_dataset.usage.dataset_id
  table_id   = google_bigquery_table.transactions.table_id
  role       = "roles/bigquery.dataEditor"
  member     = var.pubsub_service_agent
}

# Per-organization reading: a row access policy per listed organization, filtering on the organization id
# the gateway puts in every message's attributes, granted to that organization's readers. BigQuery then
# shows each reader the rows of the policies granted to them, and nothing to a reader granted none, so
# `all_rows_readers` get the TRUE filter. Policies filter reads only; the subscription keeps appending.
# google_bigquery_row_access_policy is in the google provider since 6.36.0 (these modules ask for ~> 7.0).
# https://cloud.google.com/bigquery/docs/row-level-security-intro
# https://cloud.google.com/bigquery/docs/using-row-level-security-with-features#the_true_filter
resource "google_bigquery_row_access_policy" "organization" {
  for_each   = var.organization_readers
  project    = var.project_id
  dataset_id = google_bigquery_dataset.usage.dataset_id
  table_id   = google_bigquery_table.transactions.table_id
  # Letters, digits and underscores only: "-" becomes "_", and a hash of the id keeps "a-b" and "a_b" apart.
  policy_id        = "org_${replace(each.key, "-", "_")}_${substr(sha256(each.key), 0, 8)}"
  filter_predicate = "JSON_VALUE(attributes, '$.organization_id') = '${each.key}'"
  grantees         = each.value
}

resource "google_bigquery_row_access_policy" "all_rows" {
  count            = local.row_policies_on && length(var.all_rows_readers) > 0 ? 1 : 0
  project          = var.project_id
  dataset_id       = google_bigquery_dataset.usage.dataset_id
  table_id         = google_bigquery_table.transactions.table_id
  policy_id        = "all_organizations"
  filter_predicate = "TRUE"
  grantees         = var.all_rows_readers
}

# A row access policy filters; reading the table at all takes roles/bigquery.dataViewer on it. (Running
# the query takes roles/bigquery.jobUser in some project, the reader's own or this one: granted outside.)
resource "google_bigquery_table_iam_member" "organization_readers" {
  for_each   = toset(distinct(flatten(values(var.organization_readers))))
  project    = var.project_id
  dataset_id = google_bigquery_dataset.usage.dataset_id
  table_id   = google_bigquery_table.transactions.table_id
  role       = "roles/bigquery.dataViewer"
  member     = each.value
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
  # Never deleted for inactivity (the default is after 31 days without a message): a quiet month would
  # otherwise drop the subscription, and every transaction after it would miss the table.
  expiration_policy {
    ttl = ""
  }
  depends_on = [google_bigquery_table_iam_member.pubsub_writes]
}

output "table" {
  value = "${var.project_id}.${google_bigquery_dataset.usage.dataset_id}.${google_bigquery_table.transactions.table_id}"
}
