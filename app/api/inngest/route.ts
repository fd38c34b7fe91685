import { serve } from "inngest/next";
import { inngest } from "@/server/platform/jobs/client";
import { functions } from "@/server/edges/jobs/functions";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT } = serve({ client: inngest, functions });
