CREATE TABLE "change_feed_purges" (
	"country" text PRIMARY KEY NOT NULL,
	"through" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "listing_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"seq" bigint,
	"listing_id" bigint NOT NULL,
	"country" text NOT NULL,
	"kind" text NOT NULL,
	"version" bigint NOT NULL,
	"at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"claimed_by" bigint,
	"visible_to" bigint
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"public_id" text NOT NULL,
	"webhook_id" bigint NOT NULL,
	"change_id" bigint,
	"type" text NOT NULL,
	"country" text,
	"listing_id" bigint,
	"version" bigint,
	"at" timestamp with time zone NOT NULL,
	"payload" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_status_code" integer,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "webhook_dispatch_state" (
	"id" integer PRIMARY KEY NOT NULL,
	"last_seq" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhooks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"partner_id" bigint NOT NULL,
	"url" text NOT NULL,
	"events" text[] NOT NULL,
	"countries" text[] NOT NULL,
	"scope" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"disabled_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "special_hours" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "temporarily_closed" jsonb;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "listing_changes_seq_idx" ON "listing_changes" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "listing_changes_country_seq_idx" ON "listing_changes" USING btree ("country","seq");--> statement-breakpoint
CREATE INDEX "listing_changes_unsequenced_idx" ON "listing_changes" USING btree ("id") WHERE seq is null;--> statement-breakpoint
CREATE INDEX "listing_changes_at_idx" ON "listing_changes" USING btree ("at");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_public_id_idx" ON "webhook_deliveries" USING btree ("public_id");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_change_idx" ON "webhook_deliveries" USING btree ("webhook_id","change_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_newest_idx" ON "webhook_deliveries" USING btree ("webhook_id","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_created_idx" ON "webhook_deliveries" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "webhooks_partner_idx" ON "webhooks" USING btree ("partner_id","id");--> statement-breakpoint
CREATE INDEX "webhooks_active_idx" ON "webhooks" USING btree ("id") WHERE status = 'active';