# The Artifact Registry repository the gateway image is pushed to.
variable "project_id" {
  description = "The Google Cloud project of the repository."
  type        = string
}
variable "region" {
  description = "The repository's region (the gateway image is pulled from here)."
  type        = string
}
variable "repository_id" {
  description = "The Artifact Registry repository id."
  type        = string
  default     = "usage-ingestion"
}

resource "google_artifact_registry_repository" "images" {
  project       = var.project_id
  location      = var.region
  repository_id = var.repository_id
  format        = "DOCKER"
  description   = "Usage ingestion service images"
}

output "repository_url" {
  value = "${var.region}-docker.pkg.dev/${var.project_id}/${google_artifact_registry_repository.images.repository_id}"
}
