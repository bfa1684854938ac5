/** What a Pub/Sub push delivers, as the functions framework hands it over. */
export interface PubSubEvent {
  id?: string;
  source?: string;
  data?: {
    message?: {
      data?: string;
      attributes?: Record<string, string>;
      messageId?: string;
      message_id?: string;
    };
    subscription?: string;
  };
}
