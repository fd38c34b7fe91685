/** "2000.00" -> "$2,000.00": a Money amount for people, by string operations only (no floats). */
export const dollars = (amount: string) => {
  const [whole, cents] = amount.split(".");
  return `$${whole.replace(/\B(?=(\d{3})+$)/g, ",")}.${cents}`;
};
