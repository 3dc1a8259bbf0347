export { SlotPicker, type SlotPickerProps } from './slot-picker';
export { bookingWindow, isoDate, slotLabel } from './slot-time';
export { availableSlotsKey, useAvailableSlots, type AvailableSlotsParams } from './use-available-slots';
