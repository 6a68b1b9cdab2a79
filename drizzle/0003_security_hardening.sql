CREATE TABLE "media_cleanup" (
	"key" text NOT NULL,
	"ext" text NOT NULL,
	"since" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "media_cleanup_key_ext_pk" PRIMARY KEY("key","ext")
);
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "locked_until" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "attempt" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
CREATE INDEX "media_cleanup_since_idx" ON "media_cleanup" USING btree ("since");--> statement-breakpoint
CREATE INDEX "outbox_txid_idx" ON "outbox" USING btree ("txid");--> statement-breakpoint
-- Files of listings deleted before this migration become clean-up candidates too (their images stopped being served).
INSERT INTO "media_cleanup" ("key", "ext") SELECT DISTINCT i."key", i."ext" FROM "images" i JOIN "listings" l ON l."id" = i."listing_id" WHERE l."deleted_at" IS NOT NULL ON CONFLICT DO NOTHING;
