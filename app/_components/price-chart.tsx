/**
 * An item's price chart on a dashboard page: the SVG the server drew (server/catalogue/price-chart,
 * ADR 0119), put in the page as it is, so it shows before and without JavaScript. The markup is the
 * service's own (Plot's elements, text escaped by the serialiser), never a person's HTML.
 */
export function PriceChart({ chart }: { chart: { svg: string; summary: string } | null }) {
  if (!chart) return null;
  return (
    <figure
      className="price-chart"
      data-testid="price-chart"
      style={{ margin: "12px 0 0", maxWidth: 640 }}
      dangerouslySetInnerHTML={{ __html: chart.svg }}
    />
  );
}
