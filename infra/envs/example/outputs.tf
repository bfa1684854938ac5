output "gateway_url" {
  description = "POST {gateway_url}/usage/transactions"
  value       = module.gateway.url
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
