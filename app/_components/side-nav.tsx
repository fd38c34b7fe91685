"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";

/** The account area's navigation, marking the current page; `label` names it for screen readers. */
export function SideNav({
  links,
  label,
}: {
  links: { href: string; label: string }[];
  label: string;
}) {
  const pathname = usePathname();
  return (
    <nav className="side-nav" aria-label={label}>
      {links.map((link) => (
        <Link
          key={link.href}
          href={link.href}
          aria-current={pathname === link.href ? "page" : undefined}
        >
          {link.label}
        </Link>
      ))}
    </nav>
  );
}
