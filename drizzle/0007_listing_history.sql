CREATE TABLE "listing_history" (
	"listing_id" bigint NOT NULL,
	"version" bigint NOT NULL,
	"kind" text NOT NULL,
	"at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"actor_id" bigint,
	"channel" text NOT NULL,
	"before" jsonb,
	CONSTRAINT "listing_history_listing_id_version_pk" PRIMARY KEY("listing_id","version")
);
--> statement-breakpoint
ALTER TABLE "listing_changes" ADD COLUMN "fields" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE INDEX "listing_history_at_idx" ON "listing_history" USING brin ("at");