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
  source     = "../../modules/firestore"
  project_id = var.project_id
  location   = var.firestore_location
  depends_on = [module.apis]
}

module "iam" {
  source     = "../../modules/iam"
  project_id = var.project_id
  topic_id   = module.pubsub.topic_id
  depends_on = [module.apis]
}

module "worker" {
  source                       = "../../modules/worker"
  project_id                   = var.project_id
  region                       = var.region
  source_dir                   = "${path.root}/../../../services/cost-worker/dist"
  service_account_email        = module.iam.worker_email
  pusher_service_account_email = module.iam.pusher_email
  max_instances                = var.worker_max_instances
  depends_on                   = [module.apis, module.firestore]
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

module "gateway" {
  source                = "../../modules/gateway"
  project_id            = var.project_id
  region                = var.region
  image                 = var.gateway_image
  service_account_email = module.iam.gateway_email
  topic_name            = module.pubsub.topic_name
  min_instances         = var.gateway_min_instances
  max_instances         = var.gateway_max_instances
  depends_on            = [module.apis, module.firestore]
}

module "monitoring" {
  source                        = "../../modules/monitoring"
  project_id                    = var.project_id
  subscription_name             = module.pubsub.subscription_name
  dead_letter_subscription_name = module.pubsub.dead_letter_subscription_name
  notification_channels         = var.notification_channels
  depends_on                    = [module.apis]
}

module "analytics" {
  source               = "../../modules/analytics"
  project_id           = var.project_id
  location             = var.bigquery_location
  topic_id             = module.pubsub.topic_id
  pubsub_service_agent = module.iam.pubsub_service_agent
  depends_on           = [module.apis]
}
