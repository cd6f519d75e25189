CREATE TABLE "attribute_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"set_id" integer NOT NULL,
	"name" text NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "attribute_groups" ADD CONSTRAINT "attribute_groups_set_id_attribute_sets_id_fk" FOREIGN KEY ("set_id") REFERENCES "public"."attribute_sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "attribute_groups_set_name_idx" ON "attribute_groups" USING btree ("set_id","name");--> statement-breakpoint
INSERT INTO "attribute_groups" ("set_id", "name", "sort_order")
	SELECT "set_id", "group_name", min("group_sort_order") FROM "attribute_set_attributes"
	GROUP BY "set_id", "group_name" ORDER BY "set_id", min("group_sort_order"), "group_name";
