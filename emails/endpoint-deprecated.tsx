/** Sent to a partner contact whose app called an operation in the last 90 days when that operation is deprecated. */
import { Link } from "@react-email/link";
import { Text } from "@react-email/text";
import { EmailLayout } from "./components/layout";

export type EndpointDeprecatedProps = {
  operationId: string;
  /** The apps of this contact that called it. */
  clients: string[];
  sunset: string;
  replacement: string;
  brownouts: string[];
  changelogUrl: string;
};

export const subject = (props: EndpointDeprecatedProps) =>
  `${props.operationId} is deprecated: it stops answering on ${props.sunset}`;

/** Sample props: the email tests and `npm run screens` render these. */
export const previewProps: EndpointDeprecatedProps = {
  operationId: "GET /api/v1/categories",
  clients: ["My app"],
  sunset: "2027-06-01",
  replacement: "https://developers.example/categories-v2",
  brownouts: ["2027-05-04 15:00-16:00"],
  changelogUrl: "http://localhost:3000/changelog",
};

export default function EndpointDeprecated(props: EndpointDeprecatedProps) {
  const { operationId, clients, sunset, replacement, brownouts, changelogUrl } = props;
  return (
    <EmailLayout
      preview={`${operationId} answers 410 retired from ${sunset}`}
      heading={`${operationId} is deprecated`}
      footer="You get this email because you are the contact of a Shopping API client that called this operation in the last 90 days."
    >
      <Text>
        Your app{clients.length > 1 ? "s" : ""} {clients.join(", ")} called{" "}
        <strong>{operationId}</strong> in the last 90 days. It is deprecated and answers 410 with
        error code <code>retired</code> from <strong>{sunset}</strong> (UTC). Use {replacement}{" "}
        instead.
      </Text>
      {brownouts.length ? (
        <Text>
          Before then it answers as retired during these announced brownouts (UTC):{" "}
          {brownouts.join("; ")}.
        </Text>
      ) : null}
      <Text>
        Until the sunset every response carries the Deprecation, Sunset and Link headers. Details:{" "}
        <Link href={changelogUrl}>{changelogUrl}</Link>
      </Text>
    </EmailLayout>
  );
}
