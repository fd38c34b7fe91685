-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "AgentCheckout" AS ENUM ('link', 'direct');

-- CreateEnum
CREATE TYPE "ItemCondition" AS ENUM ('new_with_tags', 'new_without_tags', 'excellent', 'good', 'fair');

-- CreateEnum
CREATE TYPE "ItemStatus" AS ENUM ('active', 'sold', 'removed');

-- CreateEnum
CREATE TYPE "ClientKind" AS ENUM ('partner', 'agent');

-- CreateTable
CREATE TABLE "stores" (
    "id" SERIAL NOT NULL,
    "slug" VARCHAR(63) NOT NULL,
    "name" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "province" CHAR(2) NOT NULL,
    "is_open" BOOLEAN NOT NULL DEFAULT true,
    "can_take_payment" BOOLEAN NOT NULL DEFAULT true,
    "can_ship" BOOLEAN NOT NULL DEFAULT true,
    "agent_checkout" "AgentCheckout" NOT NULL DEFAULT 'link',
    "offers_price_alerts" BOOLEAN NOT NULL DEFAULT false,
    "free_shipping_threshold_cents" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stores_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "shipping_rates" (
    "id" SERIAL NOT NULL,
    "store_id" INTEGER NOT NULL,
    "key" VARCHAR(40) NOT NULL,
    "label" TEXT NOT NULL,
    "base_cents" INTEGER NOT NULL,
    "per_item_cents" INTEGER NOT NULL DEFAULT 0,
    "remote_surcharge_cents" INTEGER NOT NULL DEFAULT 0,
    "min_days" INTEGER NOT NULL,
    "max_days" INTEGER NOT NULL,

    CONSTRAINT "shipping_rates_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "categories" (
    "id" SERIAL NOT NULL,
    "path" VARCHAR(300) NOT NULL,
    "name" TEXT NOT NULL,
    "depth" INTEGER NOT NULL,
    "parent_id" INTEGER,

    CONSTRAINT "categories_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "items" (
    "id" SERIAL NOT NULL,
    "store_id" INTEGER NOT NULL,
    "category_id" INTEGER,
    "title" TEXT NOT NULL,
    "brand" TEXT,
    "description" TEXT NOT NULL DEFAULT '',
    "price_cents" INTEGER NOT NULL,
    "condition" "ItemCondition",
    "url" TEXT NOT NULL,
    "status" "ItemStatus" NOT NULL DEFAULT 'active',
    "sizes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "size_keys" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "colors" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "search_vector" tsvector,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "variants" (
    "id" SERIAL NOT NULL,
    "item_id" INTEGER NOT NULL,
    "size" TEXT,
    "size_key" TEXT,
    "color" TEXT,
    "quantity" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "variants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "item_images" (
    "id" SERIAL NOT NULL,
    "item_id" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "is_cover" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "item_images_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_clients" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "ClientKind" NOT NULL DEFAULT 'partner',
    "secret_hash" TEXT,
    "scopes" TEXT[],
    "redirect_uris" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "linking_enabled" BOOLEAN NOT NULL DEFAULT false,
    "contact_email" TEXT,
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_clients_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "access_tokens" (
    "id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "scopes" TEXT[],
    "audience" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "access_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "stores_slug_key" ON "stores"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "shipping_rates_store_id_key_key" ON "shipping_rates"("store_id", "key");

-- CreateIndex
CREATE UNIQUE INDEX "categories_path_key" ON "categories"("path");

-- CreateIndex
CREATE INDEX "items_search_vector_idx" ON "items" USING GIN ("search_vector");

-- CreateIndex
CREATE INDEX "items_created_at_id_idx" ON "items"("created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "items_price_cents_id_idx" ON "items"("price_cents", "id");

-- CreateIndex
CREATE INDEX "items_store_id_idx" ON "items"("store_id");

-- CreateIndex
CREATE INDEX "items_category_id_idx" ON "items"("category_id");

-- CreateIndex
CREATE INDEX "items_updated_at_idx" ON "items"("updated_at");

-- CreateIndex
CREATE INDEX "variants_item_id_idx" ON "variants"("item_id");

-- CreateIndex
CREATE INDEX "item_images_item_id_idx" ON "item_images"("item_id");

-- CreateIndex
CREATE UNIQUE INDEX "access_tokens_token_hash_key" ON "access_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "access_tokens_client_id_idx" ON "access_tokens"("client_id");

-- CreateIndex
CREATE INDEX "access_tokens_expires_at_idx" ON "access_tokens"("expires_at");

-- AddForeignKey
ALTER TABLE "shipping_rates" ADD CONSTRAINT "shipping_rates_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "categories" ADD CONSTRAINT "categories_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "categories"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "items" ADD CONSTRAINT "items_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "items" ADD CONSTRAINT "items_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "categories"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "variants" ADD CONSTRAINT "variants_item_id_fkey" FOREIGN KEY ("item_id") REFERENCES "items"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "item_images" ADD CONSTRAINT "item_images_item_id_fkey" FOREIGN KEY ("item_id") REFERENCES "items"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "access_tokens" ADD CONSTRAINT "access_tokens_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "api_clients"("id") ON DELETE CASCADE ON UPDATE CASCADE;
