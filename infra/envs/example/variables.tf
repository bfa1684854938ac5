variable "project_id" {
  description = "The Google Cloud project to deploy into."
  type        = string
}
variable "region" {
  description = "Region for Cloud Run, the function and Artifact Registry."
  type        = string
  default     = "us-central1"
}
variable "firestore_location" {
  description = "Firestore location, e.g. nam5 or eur3, or a region."
  type        = string
  default     = "nam5"
}
variable "gateway_image" {
  description = "The gateway image built from services/gateway/Dockerfile and pushed to the registry."
  type        = string
}
variable "gateway_min_instances" {
  description = "Gateway instances kept warm."
  type        = number
  default     = 1
}
variable "gateway_max_instances" {
  description = "Upper bound on gateway instances."
  type        = number
  default     = 20
}
variable "worker_max_instances" {
  description = "Upper bound on worker instances."
  type        = number
  default     = 20
}
variable "topic_name" {
  description = "The ingestion topic; the gateway and worker are configured with it."
  type        = string
  default     = "usage-transactions"
}
variable "notification_channels" {
  description = "Monitoring notification channel ids for the alerts."
  type        = list(string)
  default     = []
}
variable "bigquery_location" {
  description = "Where the usage dataset lives in BigQuery (modules/analytics)."
  type        = string
  default     = "US"
}
