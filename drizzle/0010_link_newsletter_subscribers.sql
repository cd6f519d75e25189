-- A customer's isSubscribed reads only subscriptions that carry the customer's id: link the subscriptions made
-- with an account's email (in a store view of its website) before the account existed.
UPDATE "newsletter_subscribers" AS s
   SET "customer_id" = c."id"
  FROM "customers" AS c, "stores" AS st
 WHERE s."customer_id" IS NULL
   AND st."id" = s."store_id"
   AND st."website_id" = c."website_id"
   AND lower(s."email") = lower(c."email");
