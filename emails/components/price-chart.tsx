/**
 * Not a template: the item's price chart in a watch or alert email, an <img> of the PNG the service
 * draws when the email is opened (server/catalogue/price-chart, ADR 0119): mail clients drop inline
 * SVG. The alt text says what the picture shows, for readers that block images.
 */
import { Img } from "@react-email/img";
import { Section } from "@react-email/section";

/** The chart's signed absolute URL and its words; absent on emails written before charts. */
export type EmailPriceChart = { url: string; alt: string };

export const PriceChart = ({ chart }: { chart?: EmailPriceChart | null }) =>
  chart ? (
    <Section style={{ margin: "12px 0 0" }}>
      <Img
        src={chart.url}
        width="560"
        height="200"
        alt={chart.alt}
        style={{ width: "100%", maxWidth: 560, height: "auto" }}
      />
    </Section>
  ) : null;
