/** Price charts: an item's price history with a target line, as an SVG for pages and a PNG for emails (ADR 0119). */
export { drawPriceCharts, type DrawnChart } from "./charts-of-items";
export { servePriceChartImage } from "./chart-image";
export { priceChartImage, priceChartImageUrl } from "./chart-links";
export { priceChartPng } from "./price-chart-png";
export { priceChartSummary, priceChartSvg, type PriceChartInput } from "./price-chart-svg";
