export declare const securityHeaders: readonly { key: string; value: string }[];
