/** The shared frame of every email: brand header, content, footer with why the person got it. */
import {
  Body,
  Container,
  Head,
  Heading,
  Hr,
  Html,
  Preview,
  Section,
  Text,
} from "@react-email/components";
import type { ReactNode } from "react";

export const EmailLayout = ({
  preview,
  heading,
  children,
  footer,
}: {
  preview: string;
  heading: string;
  children: ReactNode;
  footer?: string;
}) => (
  <Html lang="en">
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
        <Hr style={{ borderColor: "#e6e1da", margin: "28px 0 12px" }} />
        <Text style={{ fontSize: 12, color: "#6b655f" }}>
          {footer ?? "You get this email because of an action on your Shopping API account."}
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
