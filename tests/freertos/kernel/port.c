/* The stand-in's port: cores, interrupt context, critical sections and
 * yields, for scenarios that drive the kernel from one host thread.
 *
 * A yield asked for inside a critical section, an interrupt or while the
 * scheduler is suspended happens when that ends, as a pended PendSV would on
 * a Cortex-M: the switch (vTaskSwitchContext) runs at once on the host, so a
 * blocking call returns with another task running. */
#include "FreeRTOS.h"
#include "task.h"

#define standinMAX_CORES 4

static BaseType_t xCurrentCore = 0;
static UBaseType_t uxCriticalNesting[standinMAX_CORES];
static BaseType_t xInsideInterrupt[standinMAX_CORES];
static BaseType_t xSwitchPending[standinMAX_CORES];

/* tasks.c: whether the scheduler runs and is not suspended. */
BaseType_t xStandinSchedulerCanSwitch(void);

static void prvSwitchNow(void) {
  xSwitchPending[xCurrentCore] = pdFALSE;
#if configNUMBER_OF_CORES == 1
  vTaskSwitchContext();
#else
  vTaskSwitchContext(xCurrentCore);
#endif
}

static void prvSwitchIfPending(void) {
  if (xSwitchPending[xCurrentCore] != pdFALSE && uxCriticalNesting[xCurrentCore] == 0 &&
      xInsideInterrupt[xCurrentCore] == pdFALSE && xStandinSchedulerCanSwitch() != pdFALSE) {
    prvSwitchNow();
  }
}

void vPortEnterCritical(void) { uxCriticalNesting[xCurrentCore]++; }

void vPortExitCritical(void) {
  uxCriticalNesting[xCurrentCore]--;
  prvSwitchIfPending();
}

UBaseType_t uxPortSetInterruptMaskFromISR(void) {
  uxCriticalNesting[xCurrentCore]++;
  return 0;
}

void vPortClearInterruptMaskFromISR(UBaseType_t uxSavedInterruptStatus) {
  (void)uxSavedInterruptStatus;
  uxCriticalNesting[xCurrentCore]--;
}

BaseType_t xPortIsInsideInterrupt(void) { return xInsideInterrupt[xCurrentCore]; }

void vPortYield(void) {
  xSwitchPending[xCurrentCore] = pdTRUE;
  prvSwitchIfPending();
}

BaseType_t xPortGetCoreID(void) { return xCurrentCore; }

/* Called when the scheduler is resumed with a switch pending. */
void vStandinSwitchIfPending(void);
void vStandinSwitchIfPending(void) { prvSwitchIfPending(); }

static void (*pxCoreObserver)(BaseType_t) = NULL;

void standin_set_core_observer(void (*pxObserver)(BaseType_t));
void standin_set_core_observer(void (*pxObserver)(BaseType_t)) { pxCoreObserver = pxObserver; }

void standin_set_core(BaseType_t xCoreID) {
  xCurrentCore = xCoreID;
  if (pxCoreObserver != NULL) {
    pxCoreObserver(xCoreID);
  }
}

/* SMP: a switch another core asked this core for (an inter-core interrupt),
 * taken at once. */
void vStandinYieldCore(BaseType_t xCoreID);
void vStandinYieldCore(BaseType_t xCoreID) {
  const BaseType_t xCaller = xCurrentCore;
  if (xCoreID == xCaller) {
    vPortYield();
    return;
  }
  standin_set_core(xCoreID);
  xSwitchPending[xCoreID] = pdTRUE;
  prvSwitchIfPending();
  standin_set_core(xCaller);
}

void standin_isr_enter(void) { xInsideInterrupt[xCurrentCore] = pdTRUE; }

void standin_isr_exit(void) {
  xInsideInterrupt[xCurrentCore] = pdFALSE;
  prvSwitchIfPending();
}

void standin_tick(void) {
  standin_isr_enter();
  const UBaseType_t uxSaved = portSET_INTERRUPT_MASK_FROM_ISR();
  const BaseType_t xSwitchRequired = xTaskIncrementTick();
  portCLEAR_INTERRUPT_MASK_FROM_ISR(uxSaved);
  portYIELD_FROM_ISR(xSwitchRequired);
  standin_isr_exit();
}
