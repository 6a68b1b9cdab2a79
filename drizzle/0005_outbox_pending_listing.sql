DROP INDEX "outbox_listing_idx";--> statement-breakpoint
CREATE INDEX "outbox_pending_listing_idx" ON "outbox" USING btree ("listing_id") WHERE processed_at is null;