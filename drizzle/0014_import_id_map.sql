-- What the Magento importer wrote for each source row: the entity, the source id and our id. A second run finds
-- its earlier rows here and updates them instead of adding them again.
CREATE TABLE "import_id_map" (
	"entity" text NOT NULL,
	"source_id" text NOT NULL,
	"target_id" integer NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "import_id_map_pk" PRIMARY KEY("entity","source_id")
);
--> statement-breakpoint
CREATE INDEX "import_id_map_target_idx" ON "import_id_map" ("entity","target_id");
