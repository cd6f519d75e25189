-- The ids an entity whose ids are kept (source id = our id: customers, products, orders …) was imported with, as
-- ranges: one row per entity, grown by each batch, rather than a row and two index entries per id in
-- import_id_map. The id map keeps the entities whose ids change, and the kept ids earlier versions recorded there
-- (a row counts as imported when either holds it).
CREATE TABLE "import_kept_ids" (
	"entity" text PRIMARY KEY NOT NULL,
	"ids" int8multirange NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL
);
