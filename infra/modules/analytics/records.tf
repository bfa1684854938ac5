# Stored records in BigQuery: the worker publishes every record it stores (and again with revision + 1
# when re-pricing rewrites it) to the records topic; a BigQuery subscription writes each message's JSON
# fields into the columns of the same names of `records` (use_table_schema). The columns are defined once,
# in records-schema.json, which test/infra/records-schema.test.ts holds the published row to. The view
# `records_latest` keeps one row per message id, its latest revision. Queries: docs/reports.md, "Past Firestore".
variable "records_topic_id" {
  description = "The records topic the worker publishes every stored record to (pubsub module's records_topic_id)."
  type        = string
}
variable "records_max_delivery_attempts" {
  description = "Attempts to write a record's row before its message moves to the records dead-letter topic."
  type        = number
  default     = 5
}

resource "google_bigquery_table" "records" {
  project             = var.project_id
  dataset_id          = google_bigquery_dataset.usage.dataset_id
  table_id            = "records"
  description         = "One row per stored record and revision, from the records topic. Query records_latest."
  deletion_protection = true
  # Partitioned by the day the gateway accepted the transaction: every revision of a record has the same
  # received_at, so one message's rows share a partition, reports by receive time read only their days,
  # and a re-pricing months later lands in the record's own day, expiring with it.
  time_partitioning {
    type          = "DAY"
    field         = "received_at"
    expiration_ms = local.partition_expiration_ms
  }
  clustering = ["organization_id", "billable_customer_id", "model"]
  schema     = file("${path.module}/records-schema.json")
}

# The latest revision of each message's record. The window is partitioned by organization, receive time
# and message id (one message's rows agree on all three), so a query's filters on organization_id and
# received_at can be applied before the window, and prune partitions. A message whose latest row is a
# withdrawal (a row published beside a commit that did not store the record) is left out.
resource "google_bigquery_table" "records_latest" {
  project             = var.project_id
  dataset_id          = google_bigquery_dataset.usage.dataset_id
  table_id            = "records_latest"
  description         = "The latest revision of each stored record: one row per message_id, withdrawals left out."
  deletion_protection = false
  view {
    use_legacy_sql = false
    query          = <<-SQL
      SELECT * EXCEPT (row_rank)
      FROM (
        SELECT
          *,
          ROW_NUMBER() OVER (
            PARTITION BY organization_id, received_at, message_id
            ORDER BY revision DESC, published_at DESC
          ) AS row_rank
        FROM `${var.project_id}.${google_bigquery_dataset.usage.dataset_id}.${google_bigquery_table.records.table_id}`
      )
      WHERE row_rank = 1 AND status != 'withdrawn'
    SQL
  }
}

# Rows BigQuery refuses (after records_max_delivery_attempts) are kept here to be looked at and replayed.
resource "google_pubsub_topic" "records_dead_letter" {
  project = var.project_id
  name    = "usage-records-bigquery-dead-letter"
}

resource "google_pubsub_subscription" "records_dead_letter_hold" {
  project                    = var.project_id
  name                       = "usage-records-bigquery-dead-letter-hold"
  topic                      = google_pubsub_topic.records_dead_letter.id
  message_retention_duration = "604800s"
  expiration_policy {
    ttl = ""
  }
}

resource "google_pubsub_subscription" "records_to_bigquery" {
  project = var.project_id
  name    = "usage-records-bigquery"
  topic   = var.records_topic_id
  bigquery_config {
    table = "${var.project_id}.${google_bigquery_dataset.usage.dataset_id}.${google_bigquery_table.records.table_id}"
    # The message's JSON fields go to the columns of the same names; no Pub/Sub metadata columns (the
    # record's own message_id is a column).
    use_table_schema = true
    write_metadata   = false
    # A field the worker publishes before the table has its column is dropped rather than the row
    # refused: the row still lands (the test holds every published field to the schema).
    drop_unknown_fields = true
  }
  message_retention_duration = "604800s"
  expiration_policy {
    ttl = ""
  }
  retry_policy {
    minimum_backoff = "10s"
    maximum_backoff = "600s"
  }
  dead_letter_policy {
    dead_letter_topic     = google_pubsub_topic.records_dead_letter.id
    max_delivery_attempts = var.records_max_delivery_attempts
  }
  depends_on = [google_bigquery_table_iam_member.pubsub_writes_records]
}

# Pub/Sub's service agent writes the rows (this table only), moves refused rows to the dead-letter topic,
# and acknowledges them on the subscription it moved them from.
resource "google_bigquery_table_iam_member" "pubsub_writes_records" {
  project    = var.project_id
  dataset_id = google_bigquery_dataset.usage.dataset_id
  table_id   = google_bigquery_table.records.table_id
  role       = "roles/bigquery.dataEditor"
  member     = var.pubsub_service_agent
}

resource "google_pubsub_topic_iam_member" "agent_publishes_records_dead_letters" {
  project = var.project_id
  topic   = google_pubsub_topic.records_dead_letter.id
  role    = "roles/pubsub.publisher"
  member  = var.pubsub_service_agent
}

resource "google_pubsub_subscription_iam_member" "agent_acks_records" {
  project      = var.project_id
  subscription = google_pubsub_subscription.records_to_bigquery.id
  role         = "roles/pubsub.subscriber"
  member       = var.pubsub_service_agent
}

# The same per-organization reading as for the transactions table (main.tf), on the records' own column.
# The view is not authorized: it reads the table with the reader's rights, so the policies apply through it.
resource "google_bigquery_row_access_policy" "records_organization" {
  for_each         = var.organization_readers
  project          = var.project_id
  dataset_id       = google_bigquery_dataset.usage.dataset_id
  table_id         = google_bigquery_table.records.table_id
  policy_id        = "org_${replace(each.key, "-", "_")}_${substr(sha256(each.key), 0, 8)}"
  filter_predicate = "organization_id = '${each.key}'"
  grantees         = each.value
}

resource "google_bigquery_row_access_policy" "records_all_rows" {
  count            = local.row_policies_on && length(var.all_rows_readers) > 0 ? 1 : 0
  project          = var.project_id
  dataset_id       = google_bigquery_dataset.usage.dataset_id
  table_id         = google_bigquery_table.records.table_id
  policy_id        = "all_organizations"
  filter_predicate = "TRUE"
  grantees         = var.all_rows_readers
}

# Readers read the view, and the table under it with their own rights; the policies filter both.
resource "google_bigquery_table_iam_member" "records_readers" {
  for_each   = toset(distinct(flatten(values(var.organization_readers))))
  project    = var.project_id
  dataset_id = google_bigquery_dataset.usage.dataset_id
  table_id   = google_bigquery_table.records.table_id
  role       = "roles/bigquery.dataViewer"
  member     = each.value
}

resource "google_bigquery_table_iam_member" "records_latest_readers" {
  for_each   = toset(distinct(flatten(values(var.organization_readers))))
  project    = var.project_id
  dataset_id = google_bigquery_dataset.usage.dataset_id
  table_id   = google_bigquery_table.records_latest.table_id
  role       = "roles/bigquery.dataViewer"
  member     = each.value
}

output "records_table" {
  value = "${var.project_id}.${google_bigquery_dataset.usage.dataset_id}.${google_bigquery_table.records.table_id}"
}
output "records_view" {
  value = "${var.project_id}.${google_bigquery_dataset.usage.dataset_id}.${google_bigquery_table.records_latest.table_id}"
}
output "records_dead_letter_subscription_name" {
  description = "Record rows BigQuery refused: missing from usage.records until replayed; monitored."
  value       = google_pubsub_subscription.records_dead_letter_hold.name
}
