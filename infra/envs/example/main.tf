# One environment: everything the service needs in one project.
module "apis" {
  source     = "../../modules/apis"
  project_id = var.project_id
}

module "registry" {
  source     = "../../modules/registry"
  project_id = var.project_id
  region     = var.region
  depends_on = [module.apis]
}

module "firestore" {
  source           = "../../modules/firestore"
  project_id       = var.project_id
  location         = var.firestore_location
  keys_database_id = var.keys_database_id
  depends_on       = [module.apis]
}

module "iam" {
  source           = "../../modules/iam"
  project_id       = var.project_id
  topic_id         = module.pubsub.topic_id
  records_topic_id = module.pubsub.records_topic_id
  records_database = module.firestore.database
  keys_database    = module.firestore.keys_database
  pairing_database = module.firestore.pairing_database
  key_admins       = var.key_admins
  depends_on       = [module.apis]
}

module "worker" {
  source                       = "../../modules/worker"
  project_id                   = var.project_id
  region                       = var.region
  source_dir                   = "${path.root}/../../../services/cost-worker/dist"
  service_account_email        = module.iam.worker_email
  pusher_service_account_email = module.iam.pusher_email
  pubsub_service_agent         = module.iam.pubsub_service_agent
  # The reports gateway reads the webhook secret key and queues replays (management API).
  reports_service_account_email = module.iam.reports_email
  max_instances                 = var.worker_max_instances
  records_topic_name            = module.pubsub.records_topic_name
  commit_transport              = var.commit_transport
  publish_transport             = var.publish_transport
  depends_on                    = [module.apis, module.firestore]
}

module "pubsub" {
  source     = "../../modules/pubsub"
  project_id = var.project_id
  topic_name = var.topic_name
  # The topic path in the URL makes the CloudEvent's source name the topic.
  push_endpoint              = "${module.worker.url}/projects/${var.project_id}/topics/${var.topic_name}"
  push_service_account_email = module.iam.pusher_email
  pubsub_service_agent       = module.iam.pubsub_service_agent
  depends_on                 = [module.apis]
}

# One image, two services: ingestion, and the reports with the dashboard (GATEWAY_ROLE), each with its own
# scaling and memory, so a heavy report never shares an instance with ingestion.
module "gateway" {
  source                = "../../modules/gateway"
  project_id            = var.project_id
  region                = var.region
  image                 = var.gateway_image
  role                  = "ingest"
  service_account_email = module.iam.gateway_email
  topic_name            = module.pubsub.topic_name
  keys_database         = module.firestore.keys_database
  pairing_database      = module.firestore.pairing_database
  min_instances         = var.gateway_min_instances
  max_instances         = var.gateway_max_instances
  publish_transport     = var.publish_transport
  # Behind the load balancer, the gateway admits the load balancer's traffic only (and internal traffic).
  behind_load_balancer = var.enable_load_balancer
  depends_on           = [module.apis, module.firestore]
}

module "reports" {
  source                = "../../modules/gateway"
  project_id            = var.project_id
  region                = var.region
  image                 = var.gateway_image
  role                  = "reports"
  service_name          = "usage-reports"
  service_account_email = module.iam.reports_email
  topic_name            = module.pubsub.topic_name
  keys_database         = module.firestore.keys_database
  pairing_database      = module.firestore.pairing_database
  # Reports read many documents each: fewer at once per instance, more memory, none kept warm.
  min_instances         = 0
  max_instances         = var.reports_max_instances
  concurrency           = 8
  memory                = "1Gi"
  page_token_key_secret = module.iam.page_token_key_secret
  # The management API's webhooks: the key their secrets are sealed with, and where replays are queued.
  webhook_secret_key_secret = module.worker.webhook_secret_key_secret
  webhook_deliveries_topic  = module.worker.webhook_deliveries_topic
  behind_load_balancer      = var.enable_load_balancer
  sign_in                   = local.sign_in
  depends_on                = [module.apis, module.firestore]
}

# Off by default: the HTTPS load balancer with Cloud Armor in front of the gateway.
module "edge" {
  source                     = "../../modules/edge"
  count                      = var.enable_load_balancer ? 1 : 0
  project_id                 = var.project_id
  region                     = var.region
  gateway_service_name       = module.gateway.service_name
  reports_service_name       = module.reports.service_name
  domains                    = var.gateway_domains
  rate_limit_count           = var.edge_rate_limit_count
  rate_limit_interval_sec    = var.edge_rate_limit_interval_sec
  ban_threshold_count        = var.edge_ban_threshold_count
  ban_threshold_interval_sec = var.edge_ban_threshold_interval_sec
  ban_duration_sec           = var.edge_ban_duration_sec
  depends_on                 = [module.apis]
}

module "monitoring" {
  source                        = "../../modules/monitoring"
  project_id                    = var.project_id
  subscription_name             = module.pubsub.subscription_name
  dead_letter_subscription_name = module.pubsub.dead_letter_subscription_name
  dead_letter_holds = {
    webhooks = {
      subscription = module.worker.webhook_dead_letter_subscription_name
      holds        = "webhook deliveries Pub/Sub gave up on"
      action       = "A receiver has failed for about 16 hours; the sweep retries it until its 24-hour window ends, then marks it failed. List its attempts (npm run admin -- webhook deliveries ORG WEBHOOK), tell the organization, replay once it is fixed (docs/webhooks.md)."
    }
    records = {
      subscription = module.analytics.records_dead_letter_subscription_name
      holds        = "record rows BigQuery refused"
      action       = "Stored records are missing from usage.records. Fix the cause (usually the table's schema), then publish the range again: npm run admin -- records publish --from ... --to ... (docs/reports.md)."
    }
  }
  notification_channels = var.notification_channels
  depends_on            = [module.apis]
}

module "analytics" {
  source                    = "../../modules/analytics"
  project_id                = var.project_id
  location                  = var.bigquery_location
  topic_id                  = module.pubsub.topic_id
  records_topic_id          = module.pubsub.records_topic_id
  pubsub_service_agent      = module.iam.pubsub_service_agent
  partition_expiration_days = var.bigquery_partition_expiration_days
  organization_readers      = var.bigquery_organization_readers
  all_rows_readers          = var.bigquery_all_rows_readers
  depends_on                = [module.apis]
}

# People's sign-in on the reports gateway (docs/sign-in.md): the client's secret and the session cookie's
# signing secret live in Secret Manager, their versions added out of band (docs/operations.md).
locals {
  sign_in = var.sign_in_issuer_url == "" ? null : {
    issuer_url               = var.sign_in_issuer_url
    client_id                = var.sign_in_client_id
    public_base_url          = var.public_base_url
    client_secret_secret_id  = google_secret_manager_secret.oidc_client_secret[0].secret_id
    session_secret_secret_id = google_secret_manager_secret.session_secret[0].secret_id
  }
}

resource "google_secret_manager_secret" "oidc_client_secret" {
  count     = var.sign_in_issuer_url == "" ? 0 : 1
  project   = var.project_id
  secret_id = "usage-oidc-client-secret"
  replication {
    auto {}
  }
  depends_on = [module.apis]
}

resource "google_secret_manager_secret" "session_secret" {
  count     = var.sign_in_issuer_url == "" ? 0 : 1
  project   = var.project_id
  secret_id = "usage-session-secret"
  replication {
    auto {}
  }
  depends_on = [module.apis]
}
