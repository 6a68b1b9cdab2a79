CREATE TABLE "api_keys" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"partner_id" bigint NOT NULL,
	"key_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "categories" (
	"country" text NOT NULL,
	"id" text NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "categories_country_id_pk" PRIMARY KEY("country","id")
);
--> statement-breakpoint
CREATE TABLE "listing_categories" (
	"listing_id" bigint NOT NULL,
	"position" integer NOT NULL,
	"country" text NOT NULL,
	"category_id" text NOT NULL,
	CONSTRAINT "listing_categories_listing_id_position_pk" PRIMARY KEY("listing_id","position")
);
--> statement-breakpoint
CREATE TABLE "listing_emails" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"listing_id" bigint NOT NULL,
	"position" integer NOT NULL,
	"address" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "listing_links" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"listing_id" bigint NOT NULL,
	"position" integer NOT NULL,
	"type" text NOT NULL,
	"url" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "listing_phones" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"listing_id" bigint NOT NULL,
	"position" integer NOT NULL,
	"type" text NOT NULL,
	"number" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "listings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"country" text NOT NULL,
	"name" text NOT NULL,
	"address" text NOT NULL,
	"zip" text NOT NULL,
	"place" text NOT NULL,
	"latitude" double precision,
	"longitude" double precision,
	"keywords" text[] DEFAULT '{}'::text[] NOT NULL,
	"description" text,
	"hours" jsonb NOT NULL,
	"contact" jsonb,
	"active" boolean DEFAULT true NOT NULL,
	"suppressed" boolean DEFAULT false NOT NULL,
	"boost" real DEFAULT 1 NOT NULL,
	"created_by" bigint NOT NULL,
	"claimed_by" bigint,
	"version" bigint DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "mappings" (
	"partner_id" bigint NOT NULL,
	"source_id" text NOT NULL,
	"listing_id" bigint NOT NULL,
	"country" text NOT NULL,
	CONSTRAINT "mappings_partner_id_source_id_pk" PRIMARY KEY("partner_id","source_id")
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"listing_id" bigint NOT NULL,
	"country" text NOT NULL,
	"version" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "partners" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"role" text DEFAULT 'partner' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_categories" ADD CONSTRAINT "listing_categories_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_emails" ADD CONSTRAINT "listing_emails_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_links" ADD CONSTRAINT "listing_links_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_phones" ADD CONSTRAINT "listing_phones_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_created_by_partners_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_claimed_by_partners_id_fk" FOREIGN KEY ("claimed_by") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mappings" ADD CONSTRAINT "mappings_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mappings" ADD CONSTRAINT "mappings_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_key_hash_idx" ON "api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "listing_emails_listing_idx" ON "listing_emails" USING btree ("listing_id");--> statement-breakpoint
CREATE INDEX "listing_links_listing_idx" ON "listing_links" USING btree ("listing_id");--> statement-breakpoint
CREATE INDEX "listing_phones_listing_idx" ON "listing_phones" USING btree ("listing_id");--> statement-breakpoint
CREATE INDEX "listings_country_idx" ON "listings" USING btree ("country","id");--> statement-breakpoint
CREATE INDEX "mappings_listing_idx" ON "mappings" USING btree ("listing_id");--> statement-breakpoint
CREATE INDEX "outbox_pending_idx" ON "outbox" USING btree ("created_at") WHERE processed_at is null;--> statement-breakpoint
CREATE INDEX "outbox_listing_idx" ON "outbox" USING btree ("listing_id");