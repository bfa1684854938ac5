# Firestore in native mode. The code's queries are single-field (status, organization_id, prefix,
# created_at), which Firestore indexes by itself: no composite index is needed. Large free-form fields
# of cost records are exempt from indexing, so a rich `provider_usage_raw` never hits the index-entry
# limit, while `context` stays indexed for filtering.
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

resource "google_firestore_database" "default" {
  project                 = var.project_id
  name                    = "(default)"
  location_id             = var.location
  type                    = "FIRESTORE_NATIVE"
  deletion_policy         = var.deletion_policy
  delete_protection_state = "DELETE_PROTECTION_ENABLED"
}

resource "google_firestore_field" "unindexed" {
  for_each   = toset(["usage", "provider_usage_raw", "line_items"])
  project    = var.project_id
  database   = google_firestore_database.default.name
  collection = "transactions"
  field      = each.value
  index_config {}
}

output "database" {
  value = google_firestore_database.default.name
}
