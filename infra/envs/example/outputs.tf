output "gateway_url" {
  description = "POST {gateway_url}/usage/transactions (the load balancer's URL when enable_load_balancer is on)."
  value       = var.enable_load_balancer ? module.edge[0].url : module.gateway.url
}
output "reports_url" {
  description = "Where the reports and the dashboard are served: the load balancer's address (which routes them to usage-reports) when enabled, else usage-reports' run.app URL."
  value       = var.enable_load_balancer ? module.edge[0].url : module.reports.url
}
output "edge_ip_address" {
  description = "With enable_load_balancer: the address gateway_domains must resolve to (null otherwise)."
  value       = one(module.edge[*].ip_address)
}
output "topic" {
  value = module.pubsub.topic_name
}
output "dead_letter_topic" {
  value = module.pubsub.dead_letter_topic_name
}
output "worker_subscription" {
  value = module.pubsub.subscription_name
}
output "image_repository" {
  value = module.registry.repository_url
}
