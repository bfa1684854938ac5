# The gateway on Cloud Run (v2): public HTTPS, clients authenticate with API keys. Every variable of
# services/gateway/src/env.ts is set here (infra tests hold this file to that schema; PORT is Cloud Run's).
variable "project_id" {
  description = "The Google Cloud project of the service."
  type        = string
}
variable "region" {
  description = "The Cloud Run region."
  type        = string
}
variable "image" {
  description = "The gateway image, e.g. REGION-docker.pkg.dev/PROJECT/usage-ingestion/gateway:TAG."
  type        = string
}
variable "service_account_email" {
  description = "The gateway's own identity (iam module): publishes to the topic, reads keys."
  type        = string
}
variable "topic_name" {
  description = "The ingestion topic (PUBSUB_TOPIC)."
  type        = string
}
variable "role" {
  description = "GATEWAY_ROLE: ingest (POST /usage/transactions), reports (the report routes and the dashboard) or both. The example environment deploys this module twice, ingest and reports, so a heavy report never shares an instance with ingestion."
  type        = string
  default     = "both"
  validation {
    condition     = contains(["ingest", "reports", "both"], var.role)
    error_message = "role must be ingest, reports or both."
  }
}
variable "service_name" {
  description = "The Cloud Run service's name (one per role when the gateway is deployed twice)."
  type        = string
  default     = "usage-gateway"
}
variable "keys_database" {
  description = "The Firestore database holding `api_keys` (KEYS_DATABASE; the firestore module's keys_database). Copy the keys there first: docs/decisions/0010-keys-apart-from-records.md."
  type        = string
}
variable "pairing_database" {
  description = "The Firestore database where instances pair OTLP spans so that one call is billed once (OTLP_PAIRING_DATABASE; the firestore module's pairing_database)."
  type        = string
}
variable "min_instances" {
  description = "Instances kept warm (1 avoids cold starts on the first request)."
  type        = number
  default     = 1
}
variable "max_instances" {
  description = "Upper bound on instances."
  type        = number
  default     = 20
}
variable "concurrency" {
  description = "Requests per instance; bounded so that worst-case bodies fit in memory."
  type        = number
  default     = 40
}
variable "cpu" {
  description = "vCPUs per instance."
  type        = string
  default     = "1"
}
variable "memory" {
  description = "Memory per instance; the heap is capped at 192 MB by NODE_OPTIONS."
  type        = string
  default     = "512Mi"
}
variable "publish_timeout_ms" {
  description = "PUBLISH_TIMEOUT_MS: how long one publish may take before its transaction is reported failed."
  type        = number
  default     = 10000
}
variable "publish_batch_max_ms" {
  description = "PUBLISH_BATCH_MAX_MS: how long the publisher gathers messages into one batch."
  type        = number
  default     = 5
}
variable "publish_transport" {
  description = "PUBSUB_PUBLISH_TRANSPORT: wire (our own Publish call) or client (@google-cloud/pubsub's). Switch to client to fall back without a new image: docs/decisions/0016-production-safe-transports.md."
  type        = string
  default     = "wire"
  validation {
    condition     = contains(["wire", "client"], var.publish_transport)
    error_message = "publish_transport must be wire or client."
  }
}
variable "universe_domain" {
  description = "GOOGLE_CLOUD_UNIVERSE_DOMAIN: the Google Cloud universe the clients and our own calls address."
  type        = string
  default     = "googleapis.com"
}
variable "key_lookup_timeout_ms" {
  description = "KEY_LOOKUP_TIMEOUT_MS: bound on one API key look-up in Firestore."
  type        = number
  default     = 5000
}
variable "key_cache_ttl_ms" {
  description = "Revocation takes effect within this time."
  type        = number
  default     = 10000
}
variable "key_cache_max_entries" {
  description = "KEY_CACHE_MAX_ENTRIES: API key look-ups kept in memory per instance."
  type        = number
  default     = 10000
}
variable "key_serve_stale_ms" {
  description = "KEY_SERVE_STALE_MS: how long past the key cache time a key found active is still accepted while Firestore cannot answer (0: never); a key revoked just before an outage is accepted up to that much longer."
  type        = number
  default     = 300000
}
variable "behind_load_balancer" {
  description = "True when the edge module's HTTPS load balancer (with Cloud Armor) fronts the gateway: ingress then admits the load balancer and internal traffic only, so the run.app URL cannot bypass Cloud Armor."
  type        = bool
  default     = false
}
variable "shutdown_timeout_ms" {
  description = "How long a stopping instance drains; Cloud Run allows 10 s after SIGTERM."
  type        = number
  default     = 9000
}
variable "rate_limits" {
  description = "Default rate limits per instance (RATE_LIMIT_*); an organization's own (admin org limits set) win. Across N instances a client may reach N times these; the edge module's Cloud Armor rules bound clients in front."
  type = object({
    org_transactions_per_second = optional(number, 1000)
    org_burst_transactions      = optional(number, 10000)
    org_reports_per_minute      = optional(number, 120)
    key_transactions_per_second = optional(number, 500)
    key_burst_transactions      = optional(number, 5000)
    key_reports_per_minute      = optional(number, 60)
    unknown_keys_per_minute     = optional(number, 60)
  })
  default = {}
}
variable "reports" {
  description = "One report's ceilings (REPORT_MAX_DOCUMENTS, REPORT_TIMEOUT_MS, REPORT_MAX_GROUPS; past any, 422 report_too_large), the groups all reports on an instance may hold together (REPORT_MAX_GROUPS_PER_INSTANCE; beyond, 429) and the reports running at once per instance, per organization (below the instance's) and per key (beyond, 429)."
  type = object({
    max_documents            = optional(number, 50000)
    timeout_ms               = optional(number, 15000)
    max_groups               = optional(number, 50000)
    groups_per_instance      = optional(number, 60000)
    at_once_per_instance     = optional(number, 8)
    at_once_per_organization = optional(number, 4)
    at_once_per_key          = optional(number, 4)
  })
  default = {}
  validation {
    condition     = var.reports.at_once_per_organization < var.reports.at_once_per_instance
    error_message = "reports.at_once_per_organization must be below reports.at_once_per_instance, so that one organization never holds every slot."
  }
}
variable "sign_in" {
  description = "People's sign-in (docs/sign-in.md), on a gateway of role reports or both; null leaves it off (/auth and /v1/me answer 404). issuer_url (OIDC_ISSUER_URL), client_id (OIDC_CLIENT_ID), public_base_url (PUBLIC_BASE_URL: the address browsers use; the redirect URI is <public_base_url>/auth/callback), and the ids of two Secret Manager secrets: the client's secret (OIDC_CLIENT_SECRET) and the session cookie's signing secret, 32 characters or more (SESSION_SECRET). The service account is granted access to those two secrets alone."
  type = object({
    issuer_url               = string
    client_id                = string
    public_base_url          = string
    client_secret_secret_id  = string
    session_secret_secret_id = string
  })
  default = null
}
variable "session_max_age_hours" {
  description = "SESSION_MAX_AGE_HOURS: how long a session lasts from sign-in, however active."
  type        = number
  default     = 12
}

variable "page_token_key_secret" {
  description = "The Secret Manager secret whose latest version is PAGE_TOKEN_KEY, the key that signs the page tokens of GET /usage/records (the iam module's page_token_key_secret). Needed where the gateway serves the reports; null on an ingest-only gateway, which serves no records."
  type        = string
  default     = null
}

variable "webhook_secret_key_secret" {
  description = "The Secret Manager secret whose latest version is WEBHOOK_SECRET_KEY, the key webhook secrets are sealed with (the worker module's webhook_secret_key_secret). Null: the management API lists, changes and replays webhooks but refuses to create one or rotate its secret (409); an ingest-only gateway needs none."
  type        = string
  default     = null
}
variable "webhook_deliveries_topic" {
  description = "WEBHOOK_DELIVERIES_TOPIC: the topic a replay through the management API is queued on (the worker module's webhook_deliveries_topic)."
  type        = string
  default     = "usage-webhook-deliveries"
}

locals {
  # Set only with sign_in: the gateway takes all of these or none.
  sign_in_environment = {
    OIDC_ISSUER_URL = try(var.sign_in.issuer_url, "")
    OIDC_CLIENT_ID  = try(var.sign_in.client_id, "")
    PUBLIC_BASE_URL = try(var.sign_in.public_base_url, "")
  }
  # From Secret Manager, the latest version of each, read when an instance starts.
  sign_in_secrets = {
    OIDC_CLIENT_SECRET = try(var.sign_in.client_secret_secret_id, "")
    SESSION_SECRET     = try(var.sign_in.session_secret_secret_id, "")
  }
  environment = {
    SESSION_MAX_AGE_HOURS = tostring(var.session_max_age_hours)
    # The client's address: Cloud Run's front end appends it to X-Forwarded-For; behind the edge module,
    # Google's load balancer appends it and then its own address, one trusted hop more.
    # https://cloud.google.com/load-balancing/docs/https#x-forwarded-for_header
    TRUST_PROXY_HOPS                       = var.behind_load_balancer ? "2" : "1"
    REPORT_MAX_DOCUMENTS                   = tostring(var.reports.max_documents)
    REPORT_TIMEOUT_MS                      = tostring(var.reports.timeout_ms)
    REPORT_MAX_GROUPS                      = tostring(var.reports.max_groups)
    REPORT_MAX_GROUPS_PER_INSTANCE         = tostring(var.reports.groups_per_instance)
    REPORTS_AT_ONCE_PER_INSTANCE           = tostring(var.reports.at_once_per_instance)
    REPORTS_AT_ONCE_PER_ORGANIZATION       = tostring(var.reports.at_once_per_organization)
    REPORTS_AT_ONCE_PER_KEY                = tostring(var.reports.at_once_per_key)
    RATE_LIMIT_ORG_TRANSACTIONS_PER_SECOND = tostring(var.rate_limits.org_transactions_per_second)
    RATE_LIMIT_ORG_BURST_TRANSACTIONS      = tostring(var.rate_limits.org_burst_transactions)
    RATE_LIMIT_ORG_REPORTS_PER_MINUTE      = tostring(var.rate_limits.org_reports_per_minute)
    RATE_LIMIT_KEY_TRANSACTIONS_PER_SECOND = tostring(var.rate_limits.key_transactions_per_second)
    RATE_LIMIT_KEY_BURST_TRANSACTIONS      = tostring(var.rate_limits.key_burst_transactions)
    RATE_LIMIT_KEY_REPORTS_PER_MINUTE      = tostring(var.rate_limits.key_reports_per_minute)
    RATE_LIMIT_UNKNOWN_KEYS_PER_MINUTE     = tostring(var.rate_limits.unknown_keys_per_minute)
    GOOGLE_CLOUD_PROJECT                   = var.project_id
    GATEWAY_ROLE                           = var.role
    PUBSUB_TOPIC                           = var.topic_name
    KEYS_DATABASE                          = var.keys_database
    OTLP_PAIRING_DATABASE                  = var.pairing_database
    # Every instance pairs OTLP spans in that database, so one call is billed once (docs/decisions/0034).
    OTLP_CALL_PAIRING            = "shared"
    OTLP_PAIRING_TIMEOUT_MS      = "5000"
    PUBLISH_TIMEOUT_MS           = tostring(var.publish_timeout_ms)
    PUBLISH_BATCH_MAX_MS         = tostring(var.publish_batch_max_ms)
    PUBSUB_PUBLISH_TRANSPORT     = var.publish_transport
    GOOGLE_CLOUD_UNIVERSE_DOMAIN = var.universe_domain
    KEY_LOOKUP_TIMEOUT_MS        = tostring(var.key_lookup_timeout_ms)
    KEY_CACHE_TTL_MS             = tostring(var.key_cache_ttl_ms)
    KEY_CACHE_MAX_ENTRIES        = tostring(var.key_cache_max_entries)
    KEY_SERVE_STALE_MS           = tostring(var.key_serve_stale_ms)
    SHUTDOWN_TIMEOUT_MS          = tostring(var.shutdown_timeout_ms)
    WEBHOOK_DELIVERIES_TOPIC     = var.webhook_deliveries_topic
    # Structured lines for Cloud Logging (the local stack uses text).
    LOG_FORMAT = "json"
    # Caps the heap so memory stays predictable under load (docs/decisions/0006-gateway-heap-flags.md); the image's CMD
    # gives the same flags and the one NODE_OPTIONS refuses (--initial-old-space-size).
    NODE_OPTIONS = "--max-old-space-size=192 --max-semi-space-size=8"
  }
}

resource "google_cloud_run_v2_service" "gateway" {
  lifecycle {
    # Reports signed with the public development key could have their page tokens forged.
    precondition {
      condition     = var.role == "ingest" || var.page_token_key_secret != null
      error_message = "A gateway that serves the reports (role reports or both) needs page_token_key_secret."
    }
  }
  project  = var.project_id
  name     = var.service_name
  location = var.region
  # All traffic, or, behind the edge module's load balancer, that load balancer's (and internal) only.
  # https://cloud.google.com/run/docs/securing/ingress#settings
  ingress             = var.behind_load_balancer ? "INGRESS_TRAFFIC_INTERNAL_LOAD_BALANCER" : "INGRESS_TRAFFIC_ALL"
  deletion_protection = false

  template {
    service_account                  = var.service_account_email
    max_instance_request_concurrency = var.concurrency
    timeout                          = "30s"

    scaling {
      min_instance_count = var.min_instances
      max_instance_count = var.max_instances
    }

    containers {
      image = var.image
      ports {
        container_port = 8080
      }
      resources {
        limits = {
          cpu    = var.cpu
          memory = var.memory
        }
        # CPU stays on between requests: the publisher's 5 ms batches must flush.
        cpu_idle          = false
        startup_cpu_boost = true
      }

      dynamic "env" {
        for_each = local.environment
        content {
          name  = env.key
          value = env.value
        }
      }
      dynamic "env" {
        for_each = var.sign_in == null ? {} : local.sign_in_environment
        content {
          name  = env.key
          value = env.value
        }
      }
      dynamic "env" {
        for_each = var.sign_in == null ? {} : local.sign_in_secrets
        content {
          name = env.key
          value_source {
            secret_key_ref {
              secret  = env.value
              version = "latest"
            }
          }
        }
      }

      # A secret, so not in local.environment: its value never sits in Terraform's state or plan.
      dynamic "env" {
        for_each = var.page_token_key_secret == null ? [] : [var.page_token_key_secret]
        content {
          name = "PAGE_TOKEN_KEY"
          value_source {
            secret_key_ref {
              secret  = env.value
              version = "latest"
            }
          }
        }
      }

      # The same: a secret, read from Secret Manager when an instance starts.
      dynamic "env" {
        for_each = var.webhook_secret_key_secret == null ? [] : [var.webhook_secret_key_secret]
        content {
          name = "WEBHOOK_SECRET_KEY"
          value_source {
            secret_key_ref {
              secret  = env.value
              version = "latest"
            }
          }
        }
      }

      startup_probe {
        http_get {
          path = "/healthz"
        }
        period_seconds    = 2
        failure_threshold = 15
      }
      liveness_probe {
        http_get {
          path = "/healthz"
        }
        period_seconds    = 15
        failure_threshold = 3
      }
    }
  }
  # An instance reads the secrets when it starts: the grant must be there first.
  depends_on = [google_secret_manager_secret_iam_member.sign_in_secrets]
}

# The gateway reads the two sign-in secrets and no other.
resource "google_secret_manager_secret_iam_member" "sign_in_secrets" {
  for_each  = var.sign_in == null ? {} : local.sign_in_secrets
  project   = var.project_id
  secret_id = each.value
  role      = "roles/secretmanager.secretAccessor"
  member    = "serviceAccount:${var.service_account_email}"
}

# Public invocation: the API key is the client's credential. (Behind the load balancer too: a serverless
# network endpoint group forwards the client's request without a Google identity.)
resource "google_cloud_run_v2_service_iam_member" "public" {
  project  = var.project_id
  location = var.region
  name     = google_cloud_run_v2_service.gateway.name
  role     = "roles/run.invoker"
  member   = "allUsers"
}

output "url" {
  description = "The run.app URL (reachable from the internet only when behind_load_balancer is false)."
  value       = google_cloud_run_v2_service.gateway.uri
}
output "service_name" {
  description = "The Cloud Run service, for the edge module's serverless network endpoint group."
  value       = google_cloud_run_v2_service.gateway.name
}
