/** What the stations page hands its client components: a station as listed, a printer to choose. */

export interface StationRow {
  id: string;
  name: string;
  isDefault: boolean;
  printerId: string | null;
  /** Open orders whose part for this station is not done yet. */
  open: number;
  /** The station's own kitchen screen, as a tablet on the restaurant's network opens it. */
  screenUrl: string;
}

export interface PrinterChoice {
  id: string;
  name: string;
}
