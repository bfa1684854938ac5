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
variable "bigquery_partition_expiration_days" {
  description = "Days each day's partition of raw transactions stays in BigQuery (modules/analytics)."
  type        = number
  default     = 400
}
variable "bigquery_organization_readers" {
  description = "Organization id => members who may read that organization's rows in BigQuery and no other's (modules/analytics). Empty: no row access policy."
  type        = map(list(string))
  default     = {}
}
variable "bigquery_all_rows_readers" {
  description = "Members who read every organization's rows in BigQuery once bigquery_organization_readers is set (modules/analytics)."
  type        = list(string)
  default     = []
}
variable "keys_database_id" {
  description = "The Firestore database meant for `api_keys` alone, out of the worker's reach (docs/decisions/0010-keys-apart-from-records.md)."
  type        = string
  default     = "api-keys"
}
variable "key_admins" {
  description = "Members who manage API keys with the admin command line: read and write on the keys database only."
  type        = list(string)
  default     = []
}
variable "enable_load_balancer" {
  description = "Put the gateway behind an HTTPS load balancer with Cloud Armor (modules/edge); its run.app URL then takes load balancer and internal traffic only."
  type        = bool
  default     = false
}
variable "gateway_domains" {
  description = "With enable_load_balancer: the domains of the load balancer's managed certificate, e.g. [\"usage.example.com\"]."
  type        = list(string)
  default     = []
}
variable "edge_rate_limit_count" {
  description = "With enable_load_balancer: requests per client IP and interval before Cloud Armor answers 429 (null: modules/edge's default)."
  type        = number
  default     = null
}
variable "edge_rate_limit_interval_sec" {
  description = "With enable_load_balancer: the interval of edge_rate_limit_count, in seconds (null: modules/edge's default)."
  type        = number
  default     = null
}
variable "edge_ban_threshold_count" {
  description = "With enable_load_balancer: requests over the limit per ban interval after which a client IP is banned (null: modules/edge's default)."
  type        = number
  default     = null
}
variable "edge_ban_threshold_interval_sec" {
  description = "With enable_load_balancer: the interval of edge_ban_threshold_count, in seconds (null: modules/edge's default)."
  type        = number
  default     = null
}
variable "edge_ban_duration_sec" {
  description = "With enable_load_balancer: how long a banned client IP is refused, in seconds (null: modules/edge's default)."
  type        = number
  default     = null
}

variable "reports_max_instances" {
  description = "Upper bound on instances of the reports service (usage-reports)."
  type        = number
  default     = 10
}

variable "publish_transport" {
  description = "PUBSUB_PUBLISH_TRANSPORT of the ingest gateway and of the worker's records feed: wire (our own Publish call) or client (@google-cloud/pubsub's)."
  type        = string
  default     = "wire"
}

variable "commit_transport" {
  description = "The worker's FIRESTORE_COMMIT_TRANSPORT: wire (our own Commit call) or client (@google-cloud/firestore's)."
  type        = string
  default     = "wire"
}

variable "sign_in_issuer_url" {
  description = "OIDC_ISSUER_URL of the reports gateway, e.g. https://accounts.google.com; empty leaves people's sign-in off (docs/sign-in.md). With it, add versions to the secrets usage-oidc-client-secret and usage-session-secret (docs/operations.md)."
  type        = string
  default     = ""
}

variable "sign_in_client_id" {
  description = "OIDC_CLIENT_ID: the client registered at the issuer for the reports gateway."
  type        = string
  default     = ""
}

variable "public_base_url" {
  description = "PUBLIC_BASE_URL of the reports gateway: its address as browsers see it (the edge's domain, or its run.app URL); the issuer's redirect URI is <public_base_url>/auth/callback."
  type        = string
  default     = ""
}
