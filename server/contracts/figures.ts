/**
 * The figures of src/schema/figures.ts (annual premium, production sum, total commission), for the
 * server's contracts feature: the same pure function the contract form shows live.
 */
export {
  contractFigures,
  type FigureInput,
  type Figures,
  PAYMENTS_PER_YEAR,
  type PaymentCycle,
} from '../../src/schema/figures.ts';
