CREATE TABLE "import_lines" (
	"import_id" bigint NOT NULL,
	"line" integer NOT NULL,
	"content" text,
	"status" text,
	"source_id" text,
	"listing_id" bigint,
	"version" bigint,
	"error" jsonb,
	CONSTRAINT "import_lines_import_id_line_pk" PRIMARY KEY("import_id","line")
);
--> statement-breakpoint
CREATE TABLE "imports" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"partner_id" bigint NOT NULL,
	"country" text NOT NULL,
	"mode" text NOT NULL,
	"status" text DEFAULT 'receiving' NOT NULL,
	"lines" integer DEFAULT 0 NOT NULL,
	"processed" integer DEFAULT 0 NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"unchanged" integer DEFAULT 0 NOT NULL,
	"deleted" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"error" text,
	"idempotency_key" text,
	"request_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "import_lines" ADD CONSTRAINT "import_lines_import_id_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_lines_pending_idx" ON "import_lines" USING btree ("import_id","line") WHERE status is null;--> statement-breakpoint
CREATE INDEX "imports_partner_idx" ON "imports" USING btree ("partner_id","id");--> statement-breakpoint
CREATE INDEX "imports_unfinished_idx" ON "imports" USING btree ("partner_id","id") WHERE status in ('queued', 'running');--> statement-breakpoint
CREATE UNIQUE INDEX "imports_idempotency_key_idx" ON "imports" USING btree ("partner_id","idempotency_key");