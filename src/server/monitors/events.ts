/** The webhook events a monitor can ask for (README, "Monitors": events and payloads). */
export const PAGE_EVENT = 'monitor.page';
export const CHECK_COMPLETED_EVENT = 'monitor.check.completed';
export const WEBHOOK_EVENTS = [PAGE_EVENT, CHECK_COMPLETED_EVENT] as const;
