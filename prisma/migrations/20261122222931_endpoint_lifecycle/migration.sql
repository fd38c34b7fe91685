-- CreateTable
CREATE TABLE "endpoint_lifecycles" (
    "operation_id" TEXT NOT NULL,
    "deprecated_at" TIMESTAMPTZ(3) NOT NULL,
    "sunset_at" TIMESTAMPTZ(3) NOT NULL,
    "replacement" TEXT NOT NULL,
    "brownouts" JSONB NOT NULL DEFAULT '[]',
    "changelog_anchor" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "endpoint_lifecycles_pkey" PRIMARY KEY ("operation_id")
);

-- CreateTable
CREATE TABLE "client_operation_calls" (
    "client_id" TEXT NOT NULL,
    "operation_id" TEXT NOT NULL,
    "last_called_on" DATE NOT NULL,

    CONSTRAINT "client_operation_calls_pkey" PRIMARY KEY ("client_id","operation_id")
);

-- CreateIndex
CREATE INDEX "client_operation_calls_operation_id_last_called_on_idx" ON "client_operation_calls"("operation_id", "last_called_on");

-- AddForeignKey
ALTER TABLE "client_operation_calls" ADD CONSTRAINT "client_operation_calls_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "api_clients"("id") ON DELETE CASCADE ON UPDATE CASCADE;
