# Every Google API the service uses, enabled once per project.
variable "project_id" {
  description = "The Google Cloud project to enable the APIs in."
  type        = string
}

locals {
  services = [
    "artifactregistry.googleapis.com",
    "cloudbuild.googleapis.com",
    "cloudfunctions.googleapis.com",
    "cloudscheduler.googleapis.com",
    "firestore.googleapis.com",
    "iam.googleapis.com",
    "monitoring.googleapis.com",
    "pubsub.googleapis.com",
    "run.googleapis.com",
    "secretmanager.googleapis.com",
    "storage.googleapis.com",
  ]
}

resource "google_project_service" "this" {
  for_each           = toset(local.services)
  project            = var.project_id
  service            = each.value
  disable_on_destroy = false
}

output "enabled" {
  description = "Depend on this to order resources after the APIs are on."
  value       = [for s in google_project_service.this : s.service]
}
