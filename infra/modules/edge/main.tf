# Optional edge in front of the gateway: a global external Application Load Balancer (HTTPS, a
# Google-managed certificate) with a Cloud Armor security policy that throttles and bans client IPs
# sending floods. The example environment creates it only with enable_load_balancer = true, and then
# sets the gateway's ingress to INGRESS_TRAFFIC_INTERNAL_LOAD_BALANCER so the run.app URL cannot be used
# to go around Cloud Armor.
# Cloud Armor answers a throttled or banned request itself, with a 429 and its own body: not the API's
# error envelope, no Retry-After. The thresholds are therefore a flood guard, set well above what one
# client IP sends legitimately; the gateway's own limits (per key, with the spec's 429) answer first.
variable "project_id" {
  description = "The Google Cloud project of the load balancer."
  type        = string
}
variable "region" {
  description = "The gateway's Cloud Run region (the serverless network endpoint group is regional)."
  type        = string
}
variable "gateway_service_name" {
  description = "The gateway's Cloud Run service (gateway module output service_name)."
  type        = string
}
variable "reports_service_name" {
  description = "The Cloud Run service of the reports (GATEWAY_ROLE=reports); the report routes, the dashboard, the management API (/v1/orgs/*), sign-in (/v1/me, /auth/*) and the console go there, everything else to gateway_service_name. Null: everything to the gateway."
  type        = string
  default     = null
}
variable "domains" {
  description = "Domains of the Google-managed certificate, e.g. [\"usage.example.com\"]; point their DNS A records at the output ip_address."
  type        = list(string)
  validation {
    condition     = length(var.domains) > 0
    error_message = "domains must name at least one domain for the managed certificate."
  }
}
variable "name_prefix" {
  description = "Prefix of the load balancer's resource names."
  type        = string
  default     = "usage-gateway"
}
variable "rate_limit_count" {
  description = "Requests one client IP may send per rate_limit_interval_sec; above it Cloud Armor answers 429 (throttle)."
  type        = number
  # null (the example environment's default) means this default.
  nullable = false
  default  = 6000
}
variable "rate_limit_interval_sec" {
  description = "The window of rate_limit_count, in seconds (one of Cloud Armor's intervals)."
  type        = number
  # null (the example environment's default) means this default.
  nullable = false
  default  = 60
  validation {
    condition     = contains([10, 30, 60, 120, 180, 240, 300, 600, 900, 1200, 1800, 2700, 3600], var.rate_limit_interval_sec)
    error_message = "rate_limit_interval_sec must be one of 10, 30, 60, 120, 180, 240, 300, 600, 900, 1200, 1800, 2700, 3600."
  }
}
variable "ban_threshold_count" {
  description = "Requests over the rate limit, per ban_threshold_interval_sec, after which the client IP is banned for ban_duration_sec."
  type        = number
  # null (the example environment's default) means this default.
  nullable = false
  default  = 30000
}
variable "ban_threshold_interval_sec" {
  description = "The window of ban_threshold_count, in seconds (one of Cloud Armor's intervals)."
  type        = number
  # null (the example environment's default) means this default.
  nullable = false
  default  = 600
  validation {
    condition     = contains([10, 30, 60, 120, 180, 240, 300, 600, 900, 1200, 1800, 2700, 3600], var.ban_threshold_interval_sec)
    error_message = "ban_threshold_interval_sec must be one of 10, 30, 60, 120, 180, 240, 300, 600, 900, 1200, 1800, 2700, 3600."
  }
}
variable "ban_duration_sec" {
  description = "How long a banned client IP gets 429 for every request, in seconds."
  type        = number
  # null (the example environment's default) means this default.
  nullable = false
  default  = 600
}
variable "request_log_sample_rate" {
  description = "Share of requests the load balancer logs with Cloud Armor's verdict (0 to 1); lower it at high volume."
  type        = number
  default     = 1
}

resource "google_project_service" "compute" {
  project            = var.project_id
  service            = "compute.googleapis.com"
  disable_on_destroy = false
}

resource "google_compute_global_address" "edge" {
  project    = var.project_id
  name       = "${var.name_prefix}-ip"
  depends_on = [google_project_service.compute]
}

resource "google_compute_region_network_endpoint_group" "gateway" {
  project               = var.project_id
  name                  = "${var.name_prefix}-neg"
  region                = var.region
  network_endpoint_type = "SERVERLESS"
  cloud_run {
    service = var.gateway_service_name
  }
  depends_on = [google_project_service.compute]
}

# Per client IP: up to rate_limit_count requests per interval pass; more are answered 429; an IP whose
# excess passes ban_threshold_count is banned (429 for everything) for ban_duration_sec.
# https://cloud.google.com/armor/docs/rate-limiting-overview
resource "google_compute_security_policy" "gateway" {
  project     = var.project_id
  name        = "${var.name_prefix}-armor"
  description = "Per-client-IP throttle and ban in front of the usage gateway."
  type        = "CLOUD_ARMOR"

  rule {
    action      = "rate_based_ban"
    priority    = 1000
    description = "Throttle, then ban, floods from one client IP"
    match {
      versioned_expr = "SRC_IPS_V1"
      config {
        src_ip_ranges = ["*"]
      }
    }
    rate_limit_options {
      conform_action = "allow"
      exceed_action  = "deny(429)"
      enforce_on_key = "IP"
      rate_limit_threshold {
        count        = var.rate_limit_count
        interval_sec = var.rate_limit_interval_sec
      }
      ban_threshold {
        count        = var.ban_threshold_count
        interval_sec = var.ban_threshold_interval_sec
      }
      ban_duration_sec = var.ban_duration_sec
    }
  }

  rule {
    action      = "allow"
    priority    = 2147483647
    description = "default rule"
    match {
      versioned_expr = "SRC_IPS_V1"
      config {
        src_ip_ranges = ["*"]
      }
    }
  }
}

resource "google_compute_backend_service" "gateway" {
  project               = var.project_id
  name                  = "${var.name_prefix}-backend"
  load_balancing_scheme = "EXTERNAL_MANAGED"
  protocol              = "HTTPS"
  security_policy       = google_compute_security_policy.gateway.id
  backend {
    group = google_compute_region_network_endpoint_group.gateway.id
  }
  log_config {
    enable      = true
    sample_rate = var.request_log_sample_rate
  }
}

resource "google_compute_region_network_endpoint_group" "reports" {
  count                 = var.reports_service_name == null ? 0 : 1
  project               = var.project_id
  name                  = "${var.name_prefix}-reports-neg"
  region                = var.region
  network_endpoint_type = "SERVERLESS"
  cloud_run {
    service = var.reports_service_name
  }
  depends_on = [google_project_service.compute]
}

resource "google_compute_backend_service" "reports" {
  count                 = var.reports_service_name == null ? 0 : 1
  project               = var.project_id
  name                  = "${var.name_prefix}-reports-backend"
  load_balancing_scheme = "EXTERNAL_MANAGED"
  protocol              = "HTTPS"
  security_policy       = google_compute_security_policy.gateway.id
  backend {
    group = google_compute_region_network_endpoint_group.reports[0].id
  }
  log_config {
    enable      = true
    sample_rate = var.request_log_sample_rate
  }
}

# What the reports role serves to the reports service when there is one; the rest to the ingest gateway.
resource "google_compute_url_map" "gateway" {
  project         = var.project_id
  name            = "${var.name_prefix}-urls"
  default_service = google_compute_backend_service.gateway.id

  dynamic "host_rule" {
    for_each = var.reports_service_name == null ? [] : [1]
    content {
      hosts        = ["*"]
      path_matcher = "reports"
    }
  }
  dynamic "path_matcher" {
    for_each = var.reports_service_name == null ? [] : [1]
    content {
      name            = "reports"
      default_service = google_compute_backend_service.gateway.id
      # Every path the reports role serves: the report routes, the dashboard, the management API, sign-in and
      # the console (served next, routed now so it needs no edge change). /v1/traces stays on ingest.
      path_rule {
        paths = [
          "/usage/costs", "/usage/unpriced", "/usage/budgets", "/usage/records", "/usage/records/*",
          "/dashboard", "/dashboard/*", "/favicon.ico",
          "/v1/orgs/*", "/v1/me", "/auth/*", "/console", "/console/*",
        ]
        service = google_compute_backend_service.reports[0].id
      }
    }
  }
}

resource "google_compute_managed_ssl_certificate" "gateway" {
  project = var.project_id
  name    = "${var.name_prefix}-cert"
  managed {
    domains = var.domains
  }
  depends_on = [google_project_service.compute]
}

resource "google_compute_ssl_policy" "modern" {
  project         = var.project_id
  name            = "${var.name_prefix}-tls"
  profile         = "MODERN"
  min_tls_version = "TLS_1_2"
  depends_on      = [google_project_service.compute]
}

resource "google_compute_target_https_proxy" "gateway" {
  project          = var.project_id
  name             = "${var.name_prefix}-https"
  url_map          = google_compute_url_map.gateway.id
  ssl_certificates = [google_compute_managed_ssl_certificate.gateway.id]
  ssl_policy       = google_compute_ssl_policy.modern.id
}

# HTTPS only: nothing listens on port 80, so an API key is never sent in clear to this address.
resource "google_compute_global_forwarding_rule" "https" {
  project               = var.project_id
  name                  = "${var.name_prefix}-https"
  load_balancing_scheme = "EXTERNAL_MANAGED"
  ip_protocol           = "TCP"
  port_range            = "443"
  ip_address            = google_compute_global_address.edge.id
  target                = google_compute_target_https_proxy.gateway.id
}

output "ip_address" {
  description = "Point the domains' DNS A records here; the certificate is issued once they resolve to it."
  value       = google_compute_global_address.edge.address
}
output "url" {
  description = "The gateway's public URL behind the load balancer."
  value       = "https://${var.domains[0]}"
}
output "security_policy" {
  description = "The Cloud Armor policy's name (its rules and logs are in the console under Cloud Armor)."
  value       = google_compute_security_policy.gateway.name
}
