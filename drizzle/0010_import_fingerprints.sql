ALTER TABLE "mappings" ADD COLUMN "import_fingerprint" text;--> statement-breakpoint
ALTER TABLE "mappings" ADD COLUMN "import_version" bigint;