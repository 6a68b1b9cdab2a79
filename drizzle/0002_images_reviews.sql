CREATE TABLE "images" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"listing_id" bigint NOT NULL,
	"type" text NOT NULL,
	"caption" text NOT NULL,
	"key" text NOT NULL,
	"ext" text NOT NULL,
	"content_type" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reviews" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"listing_id" bigint NOT NULL,
	"partner_id" bigint NOT NULL,
	"origin" text NOT NULL,
	"source_id" text NOT NULL,
	"reviewer" text NOT NULL,
	"reviewed" text NOT NULL,
	"title" text NOT NULL,
	"text" text NOT NULL,
	"rating" integer NOT NULL,
	"date_time" text NOT NULL,
	"reviewed_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "images" ADD CONSTRAINT "images_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "images_listing_idx" ON "images" USING btree ("listing_id");--> statement-breakpoint
CREATE INDEX "images_key_idx" ON "images" USING btree ("key");--> statement-breakpoint
CREATE UNIQUE INDEX "reviews_source_idx" ON "reviews" USING btree ("listing_id","partner_id","source_id");--> statement-breakpoint
CREATE INDEX "reviews_listing_idx" ON "reviews" USING btree ("listing_id","reviewed_at");