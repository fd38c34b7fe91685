/** The shared frame of every email: brand header, content, footer with why the person got it. */
import { Body } from "@react-email/body";
import { Container } from "@react-email/container";
import { Head } from "@react-email/head";
import { Heading } from "@react-email/heading";
import { Hr } from "@react-email/hr";
import { Html } from "@react-email/html";
import { Preview } from "@react-email/preview";
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import type { ReactNode } from "react";
import type { EmailIntl } from "./i18n";

/**
 * `intl` (emails/components/i18n.ts) makes the frame speak the reader's language and name their
 * time zone once, under the content; partner emails pass none and stay English.
 */
export const EmailLayout = ({
  preview,
  heading,
  children,
  footer,
  intl,
  showsTimes,
}: {
  preview: string;
  heading: string;
  children: ReactNode;
  footer?: string;
  intl?: EmailIntl;
  /** The email shows times: say once which zone they are in. */
  showsTimes?: boolean;
}) => (
  <Html lang={intl?.locale ?? "en-CA"}>
    <Head />
    <Preview>{preview}</Preview>
    <Body
      style={{
        backgroundColor: "#fbf9f6",
        fontFamily: "system-ui, -apple-system, Segoe UI, sans-serif",
        color: "#1d1b19",
      }}
    >
      <Container
        style={{
          maxWidth: 560,
          margin: "0 auto",
          padding: "32px 24px",
          backgroundColor: "#ffffff",
        }}
      >
        <Text
          style={{
            fontSize: 14,
            letterSpacing: 1,
            textTransform: "uppercase",
            color: "#9c3d2a",
            margin: 0,
          }}
        >
          Shopping API
        </Text>
        <Heading as="h1" style={{ fontSize: 22, margin: "12px 0 20px" }}>
          {heading}
        </Heading>
        <Section>{children}</Section>
        {intl && showsTimes ? (
          <Text style={{ fontSize: 13, color: "#6b655f" }}>
            {intl.t("common.zoneNote", { zone: intl.zone })}
          </Text>
        ) : null}
        <Hr style={{ borderColor: "#e6e1da", margin: "28px 0 12px" }} />
        <Text style={{ fontSize: 12, color: "#6b655f" }}>
          {footer ??
            intl?.t("common.email.footer") ??
            "You get this email because of an action on your Shopping API account."}
        </Text>
      </Container>
    </Body>
  </Html>
);

export const buttonStyle = {
  backgroundColor: "#9c3d2a",
  color: "#ffffff",
  padding: "12px 20px",
  borderRadius: 6,
  textDecoration: "none",
  display: "inline-block",
};

/**
 * The link under a button, for mail readers that hide buttons. A signed link is one long word:
 * it breaks anywhere, or it would widen the email past a phone's screen.
 */
export const OrOpen = ({ url, intl }: { url: string; intl: EmailIntl }) => (
  <Text
    style={{ fontSize: 13, color: "#6b655f", overflowWrap: "anywhere", wordBreak: "break-all" }}
  >
    {intl.t("common.email.orOpen", { url })}
  </Text>
);
