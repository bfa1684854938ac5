# Firestore in native mode. The code's queries are single-field (received_at, day, status, request_id
# and transaction_index, organization_id, prefix, created_at), which Firestore indexes by itself, except
# the records listing (GET /usage/records), whose filtered queries need the composite indexes below. The
# free-form fields of cost records are exempt from indexing (see `unindexed_record_fields`), so no accepted
# transaction can reach the 40,000 index entries a document may have. A second database holds the API keys
# apart from the records (see `keys_database_id`).
variable "project_id" {
  description = "The Google Cloud project of the database."
  type        = string
}
variable "location" {
  description = "Firestore location, e.g. nam5 or eur3, or a region."
  type        = string
}
variable "deletion_policy" {
  description = "ABANDON keeps the database (and every cost record) when Terraform destroys it; DELETE removes it."
  type        = string
  default     = "ABANDON"
}
variable "keys_database_id" {
  description = "The Firestore database that holds `api_keys` apart from the records, so that IAM conditions can keep the worker away from keys (docs/decisions/0010-keys-apart-from-records.md)."
  type        = string
  default     = "api-keys"
  validation {
    # Firestore database ids: 4-63 characters, lower-case letters, digits and hyphens, starting with a letter.
    condition     = can(regex("^[a-z][a-z0-9-]{2,61}[a-z0-9]$", var.keys_database_id))
    error_message = "keys_database_id must be 4-63 lower-case letters, digits or hyphens, starting with a letter and not ending with a hyphen."
  }
}

variable "pairing_database_id" {
  description = "The Firestore database where gateway instances pair OTLP spans so that one model call is billed once (OTLP_PAIRING_DATABASE): it holds nothing else, so the ingest gateway may write there and only there (docs/decisions/0034-one-call-once-across-instances.md)."
  type        = string
  default     = "otlp-pairing"
  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{2,61}[a-z0-9]$", var.pairing_database_id))
    error_message = "pairing_database_id must be 4-63 lower-case letters, digits or hyphens, starting with a letter and not ending with a hyphen."
  }
}

locals {
  # Record fields whose content the client chooses, with keys it chooses: `context` (64 keys, but any
  # JSON under each), `usage` (metrics objects keep extra keys), `provider_usage_raw` (any JSON object)
  # and the worker's `line_items`. An exemption on a map covers its subfields (Firestore, "Automatic
  # index exemptions": https://cloud.google.com/firestore/docs/concepts/index-overview). No query filters
  # on them; the fields the code queries (received_at, status, request_id, transaction_index) and the
  # bounded `dimensions` and `pricing` maps stay indexed. test/infra/index-entries.test.ts counts the
  # worst accepted transaction's index entries with exactly this list.
  unindexed_record_fields = ["context", "usage", "provider_usage_raw", "line_items"]
  # The fields a records listing may lead its query with (packages/records/src/list-records.ts,
  # INDEXED_RECORD_FIELDS): one equality filter, newest received first. The customer sits under `context`,
  # which is exempt from single-field indexing; a composite index names its field all the same.
  record_list_fields = ["context.billable_customer_id", "status", "model", "model_tier", "provider"]
}

resource "google_firestore_database" "default" {
  project                 = var.project_id
  name                    = "(default)"
  location_id             = var.location
  type                    = "FIRESTORE_NATIVE"
  deletion_policy         = var.deletion_policy
  delete_protection_state = "DELETE_PROTECTION_ENABLED"
}

resource "google_firestore_database" "keys" {
  project                 = var.project_id
  name                    = var.keys_database_id
  location_id             = var.location
  type                    = "FIRESTORE_NATIVE"
  deletion_policy         = var.deletion_policy
  delete_protection_state = "DELETE_PROTECTION_ENABLED"
}

# `collection` is a collection group: every organization's `transactions` subcollection. An empty
# `index_config` disables every automatic index of the field; without `ttl_config` no TTL policy is set.
resource "google_firestore_field" "unindexed" {
  for_each   = toset(local.unindexed_record_fields)
  project    = var.project_id
  database   = google_firestore_database.default.name
  collection = "transactions"
  field      = each.value
  index_config {}
}

# GET /usage/records: `field == value`, `received_at` in [from, to), newest first with the document id
# breaking ties. One index per field: a listing filters on one in its query and on the others as it reads
# (docs/decisions/0023-records-paging-on-a-snapshot.md). Each adds one entry per record, all of them
# bounded scalars; the unfiltered listing uses the automatic index of `received_at`.
resource "google_firestore_index" "record_list" {
  for_each    = toset(local.record_list_fields)
  project     = var.project_id
  database    = google_firestore_database.default.name
  collection  = "transactions"
  query_scope = "COLLECTION"
  fields {
    field_path = each.value
    order      = "ASCENDING"
  }
  fields {
    field_path = "received_at"
    order      = "DESCENDING"
  }
  fields {
    field_path = "__name__"
    order      = "DESCENDING"
  }
}

# A summary's cells (a day's, an hour's or its open part's, a month's) are compressed bytes of up to
# 800 KB, or JSON text in parts written before (packages/reports/src/fold): never queried, and an
# index would only cost writes.
resource "google_firestore_field" "summary_cells" {
  for_each = {
    for pair in setproduct(["cost_summaries", "hour_summaries", "hour_partials", "month_summaries"], ["cells", "cells_deflated"]) :
    "${pair[0]}/${pair[1]}" => { collection = pair[0], field = pair[1] }
  }
  project    = var.project_id
  database   = google_firestore_database.default.name
  collection = each.value.collection
  field      = each.value.field
  index_config {}
}

# It was the day summaries' `cells` alone before: the same field exemption, kept in place.
moved {
  from = google_firestore_field.summary_cells
  to   = google_firestore_field.summary_cells["cost_summaries/cells"]
}

output "database" {
  description = "The records database: organizations, records, roll-ups, custom prices, rejected messages."
  value       = google_firestore_database.default.name
}
output "keys_database" {
  description = "The database meant for `api_keys` alone."
  value       = google_firestore_database.keys.name
}

# Webhooks (docs/webhooks.md) read two collection groups across organizations: the dispatch finds
# `events` whose `dispatched_at` is null, the sweep finds `webhook_deliveries` whose `sweep_at` has come.
# Reconciliation (docs/reconciliation.md) finds the `connections` that are active and the
# `reconciliation_runs` still queued.
# Single-field indexes exist for one collection by default, not for a collection group: these add them
# (and keep the collection-scope ones an override would otherwise drop).
resource "google_firestore_field" "collection_group_scans" {
  for_each = {
    events              = "dispatched_at"
    webhook_deliveries  = "sweep_at"
    connections         = "status"
    reconciliation_runs = "state"
  }
  project    = var.project_id
  database   = google_firestore_database.default.name
  collection = each.key
  field      = each.value
  index_config {
    indexes {
      order = "ASCENDING"
    }
    indexes {
      order       = "ASCENDING"
      query_scope = "COLLECTION_GROUP"
    }
  }
}

# People's sessions (docs/decisions/0025) carry `expires_at`: Firestore deletes each one after it, within
# a day or so; the gateway refuses an expired session itself in the meantime.
resource "google_firestore_field" "session_expiry" {
  project    = var.project_id
  database   = google_firestore_database.default.name
  collection = "sessions"
  field      = "expires_at"
  ttl_config {}
}

# One call billed once across gateway instances (docs/decisions/0034): the span slots, in a database of
# their own. Nothing there is worth keeping past an hour, so it may be deleted with the project.
resource "google_firestore_database" "pairing" {
  project         = var.project_id
  name            = var.pairing_database_id
  location_id     = var.location
  type            = "FIRESTORE_NATIVE"
  deletion_policy = "DELETE"
}

# Slots are read by their ids only: no field of theirs is indexed (each index entry is a write paid), and
# Firestore deletes each one after its `expire_at`, within a day or so; a slot past it is only stale.
resource "google_firestore_field" "span_slots" {
  for_each   = toset(["wrapped", "untaken_id", "decision", "expire_at"])
  project    = var.project_id
  database   = google_firestore_database.pairing.name
  collection = "otlp_span_slots"
  field      = each.value
  index_config {}
  dynamic "ttl_config" {
    for_each = each.value == "expire_at" ? [1] : []
    content {}
  }
}

output "pairing_database" {
  description = "The database where gateway instances pair OTLP spans, and nothing else."
  value       = google_firestore_database.pairing.name
}
