/** Sandbox item pictures: a small SVG drawn from the item id, so pages have an image to show offline. */
export const dynamic = "force-static";

export const GET = async (
  _request: Request,
  context: { params: Promise<{ id: string; file: string }> },
) => {
  const { id, file } = await context.params;
  const seed = Number.parseInt(id, 10) || 0;
  const hue = (seed * 47 + (file.startsWith("2") ? 180 : 0)) % 360;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="600" viewBox="0 0 480 600"><rect width="480" height="600" fill="hsl(${hue} 35% 88%)"/><path d="M170 120 L240 90 L310 120 L360 200 L320 220 L310 500 L170 500 L160 220 L120 200 Z" fill="hsl(${hue} 40% 45%)"/><text x="240" y="560" font-family="sans-serif" font-size="22" text-anchor="middle" fill="hsl(${hue} 30% 30%)">item ${seed}</text></svg>`;
  return new Response(svg, {
    headers: { "Content-Type": "image/svg+xml", "Cache-Control": "public, max-age=86400" },
  });
};
