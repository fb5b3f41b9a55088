import { allRoutes } from '../../src/api/routes';
import { eventValidator, knownEventTypes, validateEvent } from '../../src/events/event-types';

// Loading every route loads every area's event contracts.
allRoutes();

describe('the event contracts of every area', () => {
  it('are many, and each payload schema compiles', () => {
    const types = knownEventTypes();
    expect(types.length).toBeGreaterThan(100);
    for (const type of types) expect(typeof eventValidator(type)).toBe('function');
  });

  it('refuse a payload of the wrong shape, compiled on first use', () => {
    expect(() => validateEvent('DisputeOpened', { id: 'DSP-000001' })).toThrow(/^DisputeOpened: data is missing required field 'invoice'/);
  });

  it('refuse an unknown event type', () => {
    expect(eventValidator('PaymentTeleported')).toBeUndefined();
    expect(() => validateEvent('PaymentTeleported', {})).toThrow('Event type PaymentTeleported is not defined.');
  });
});
