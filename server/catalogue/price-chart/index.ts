/** Price charts: an item's price history with a target line, as an SVG for pages and a PNG for emails (ADR 0119). */
export { drawPriceCharts } from "./charts-of-items";
export { servePriceChartImage } from "./chart-image";
export { priceChartImage } from "./chart-links";
